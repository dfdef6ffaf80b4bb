/** Attempts recorded, and endpoints that failed long enough disabled, on either dialect. */
import type { DeliveryOutcome, DisablePolicy, WebhookEndpoint } from '../../core/ports/webhook-store.ts';
import type { Row } from './rows.ts';
import { q, type Script } from './script.ts';
import { bumpWebhooks, cancelPending, toEndpoint } from './webhook-rows.ts';

const RECORD = `UPDATE webhook_deliveries SET state = ?, next_at = ?, status_code = ?, duration_ms = ?,
  error = ?, updated_at = ? WHERE id = ? AND state = 'pending' RETURNING id`;
const SUCCEEDED = `UPDATE webhook_endpoints SET failing_since = NULL, failures = 0
  WHERE id = ? AND (failures <> 0 OR failing_since IS NOT NULL)`;
const FAILED = `UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ?), failures = failures + ?
  WHERE id = ? RETURNING id, enabled, failing_since, failures`;
const DISABLE = `UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'failing', disabled_at = ?,
  updated_at = ? WHERE id = ? AND enabled = true RETURNING *`;

/** One transaction for a batch of attempts: each delivery, then each endpoint's streak once. */
export function* finishDeliveries(
  outcomes: readonly DeliveryOutcome[],
  now: number,
  policy: DisablePolicy,
): Script<WebhookEndpoint[]> {
  const failures = new Map<number, number>();
  const successes = new Set<number>();
  for (const outcome of outcomes) {
    const state = outcome.ok ? 'delivered' : outcome.retryAt === null ? 'failed' : 'pending';
    const nextAt = outcome.retryAt ?? now;
    const recorded = yield q(
      RECORD,
      state,
      nextAt,
      outcome.statusCode,
      outcome.durationMs,
      outcome.error,
      now,
      outcome.id,
    );
    // One cancelled or finished meanwhile counts for nothing.
    if (recorded.length === 0 || outcome.endpointId === null) continue;
    if (outcome.ok) {
      successes.add(outcome.endpointId);
      failures.delete(outcome.endpointId);
    } else failures.set(outcome.endpointId, (failures.get(outcome.endpointId) ?? 0) + 1);
  }
  for (const id of successes) if (!failures.has(id)) yield q(SUCCEEDED, id);
  const disabled: WebhookEndpoint[] = [];
  for (const [id, count] of failures) {
    const [row] = yield q(FAILED, now, count, id);
    if (!row || !failingTooLong(row, now, policy)) continue;
    const [off] = yield q(DISABLE, now, now, id);
    if (!off) continue;
    yield cancelPending(id, now);
    disabled.push(toEndpoint(off as Row));
  }
  if (disabled.length > 0) yield bumpWebhooks();
  return disabled;
}

function failingTooLong(row: Row, now: number, policy: DisablePolicy): boolean {
  const since = row.failing_since === null ? now : Number(row.failing_since);
  return Number(row.failures) >= policy.failuresInRow || now - since >= policy.failingForMs;
}
