/** Rows and small statements of the webhook tables, shared by the store's scripts. */
import type { DeliveryRecord, DeliveryState, WebhookEndpoint } from '../../core/ports/webhook-store.ts';
import { type EventType, isEventType } from '../../core/webhook-events.ts';
import { dateOrNull, type Row, truthy } from './rows.ts';
import { q } from './script.ts';

export const ENDPOINT_COLUMNS = `id, workspace_id, url, events, description, secret, enabled, disabled_reason,
  disabled_at, failing_since, failures, created_at, updated_at`;

/** Event types as stored: each between spaces, so LIKE '% type %' finds one. */
export const eventsText = (events: readonly EventType[]) => ` ${[...new Set(events)].join(' ')} `;

export function toEndpoint(row: Row): WebhookEndpoint {
  const disabledAt = dateOrNull(row.disabled_at);
  return {
    id: Number(row.id),
    workspaceId: Number(row.workspace_id),
    url: String(row.url),
    events: String(row.events).trim().split(/\s+/).filter(isEventType),
    description: String(row.description),
    secret: String(row.secret),
    enabled: truthy(row.enabled),
    disabled:
      disabledAt === null
        ? null
        : { reason: row.disabled_reason === 'failing' ? 'failing' : 'manual', at: disabledAt },
    failingSince: dateOrNull(row.failing_since),
    failures: Number(row.failures),
    createdAt: new Date(Number(row.created_at)),
    updatedAt: new Date(Number(row.updated_at)),
  };
}

export function toDelivery(row: Row): DeliveryRecord {
  const state = String(row.state) as DeliveryState;
  return {
    id: Number(row.id),
    messageId: String(row.message_id),
    type: String(row.type),
    state,
    attempts: Number(row.attempts),
    statusCode: row.status_code === null ? null : Number(row.status_code),
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    error: row.error === null ? null : String(row.error),
    createdAt: new Date(Number(row.created_at)),
    updatedAt: new Date(Number(row.updated_at)),
    nextAt: state === 'pending' ? new Date(Number(row.next_at)) : null,
  };
}

export const bumpWebhooks = () => q('UPDATE webhook_state SET version = version + 1 WHERE id = 1');

export const cancelPending = (endpointId: number, now: number) =>
  q(
    `UPDATE webhook_deliveries SET state = 'cancelled', updated_at = ?
     WHERE endpoint_id = ? AND state = 'pending'`,
    now,
    endpointId,
  );
