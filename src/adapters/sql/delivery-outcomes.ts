/** Attempts recorded, and endpoints that failed long enough disabled, on either dialect. */
import type {
  DeliveryOutcome,
  DisablePolicy,
  HeldDelivery,
  WebhookEndpoint,
} from '../../core/ports/webhook-store.ts';
import type { Row } from './rows.ts';
import { q, type Script } from './script.ts';
import { bumpWebhooks, cancelPending, toEndpoint } from './webhook-rows.ts';

/** Outcomes recorded per statement: one statement, not one per delivery, keeps the transaction short. */
const OUTCOMES_PER_STATEMENT = 200;
const OUTCOME_ROW =
  '(CAST(? AS BIGINT), ?, CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT))';

/**
 * Each delivery still pending under the same claim takes its outcome (VALUES columns are column1…
 * in both dialects); one cancelled, finished or claimed again meanwhile is left alone and counts
 * for nothing.
 */
const record = (rows: number) => `UPDATE webhook_deliveries SET state = v.column2, next_at = v.column3,
  status_code = v.column4, duration_ms = v.column5, error = v.column6, updated_at = ?
  FROM (VALUES ${Array(rows).fill(OUTCOME_ROW).join(', ')}) AS v
  WHERE webhook_deliveries.id = v.column1 AND webhook_deliveries.state = 'pending'
    AND webhook_deliveries.attempts = v.column7
  RETURNING webhook_deliveries.id`;
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
  const recorded = new Set<number>();
  for (let at = 0; at < outcomes.length; at += OUTCOMES_PER_STATEMENT) {
    const part = outcomes.slice(at, at + OUTCOMES_PER_STATEMENT);
    const rows = yield q(
      record(part.length),
      now,
      ...part.flatMap((outcome) => [
        outcome.id,
        outcome.ok ? 'delivered' : outcome.retryAt === null ? 'failed' : 'pending',
        outcome.retryAt ?? now,
        outcome.statusCode,
        outcome.durationMs,
        outcome.error,
        outcome.attempt,
      ]),
    );
    for (const row of rows) recorded.add(Number(row.id));
  }
  for (const outcome of outcomes) {
    if (!recorded.has(outcome.id) || outcome.endpointId === null) continue;
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

/** Claims renewed per statement. */
const RENEWALS_PER_STATEMENT = 500;

/**
 * Each delivery still pending under the same claim (its attempt count unchanged) is held until
 * `until`; one recorded, cancelled or claimed again meanwhile is left alone.
 */
export function* renewDeliveries(held: readonly HeldDelivery[], until: number): Script<number> {
  let renewed = 0;
  for (let at = 0; at < held.length; at += RENEWALS_PER_STATEMENT) {
    const part = held.slice(at, at + RENEWALS_PER_STATEMENT);
    const rows = yield q(
      `UPDATE webhook_deliveries SET next_at = ?
       FROM (VALUES ${part.map(() => '(CAST(? AS BIGINT), CAST(? AS BIGINT))').join(', ')}) AS v
       WHERE webhook_deliveries.id = v.column1 AND webhook_deliveries.attempts = v.column2
         AND webhook_deliveries.state = 'pending'
       RETURNING webhook_deliveries.id`,
      until,
      ...part.flatMap((claim) => [claim.id, claim.attempt]),
    );
    renewed += rows.length;
  }
  return renewed;
}
