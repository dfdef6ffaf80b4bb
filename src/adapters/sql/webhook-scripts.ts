/** Webhook endpoints and the outbox's deliveries on either dialect (adapters/sql/script.ts). */
import type {
  ClaimedDelivery,
  EndpointChange,
  NewEndpoint,
  WebhookEndpoint,
  WebhookStore,
} from '../../core/ports/webhook-store.ts';
import { finishDeliveries, renewDeliveries } from './delivery-outcomes.ts';
import { hears, writeEvent } from './outbox-scripts.ts';
import { mapFirst, type Row } from './rows.ts';
import { type Param, q, rowsOf, type Script, type ScriptRunner } from './script.ts';
import {
  bumpWebhooks,
  cancelPending,
  ENDPOINT_COLUMNS,
  eventsText,
  toDelivery,
  toEndpoint,
} from './webhook-rows.ts';

function* createEndpoint(endpoint: NewEndpoint, now: number): Script<WebhookEndpoint> {
  const rows = yield q(
    `INSERT INTO webhook_endpoints (workspace_id, url, events, description, secret, enabled, failures,
       created_at, updated_at) VALUES (?, ?, ?, ?, ?, true, 0, ?, ?) RETURNING ${ENDPOINT_COLUMNS}`,
    endpoint.workspaceId,
    endpoint.url,
    eventsText(endpoint.events),
    endpoint.description,
    endpoint.secret,
    now,
    now,
  );
  yield bumpWebhooks();
  return toEndpoint(rows[0] as Row);
}

function* updateEndpoint(
  workspaceId: number,
  id: number,
  change: EndpointChange,
  now: number,
): Script<WebhookEndpoint | undefined> {
  const sets = ['updated_at = ?'];
  const values: Array<string | number | null> = [now];
  const set = (column: string, value: string | number | null) => {
    sets.push(`${column} = ?`);
    values.push(value);
  };
  if (change.url !== undefined) set('url', change.url);
  if (change.events !== undefined) set('events', eventsText(change.events));
  if (change.description !== undefined) set('description', change.description);
  if (change.secret !== undefined) set('secret', change.secret);
  if (change.enabled === true) {
    sets.push(
      'enabled = true',
      'disabled_reason = NULL',
      'disabled_at = NULL',
      'failing_since = NULL',
      'failures = 0',
    );
  } else if (change.enabled === false) {
    sets.push("enabled = false, disabled_reason = coalesce(disabled_reason, 'manual')");
    sets.push('disabled_at = coalesce(disabled_at, ?)');
    values.push(now);
  }
  const rows = yield q(
    `UPDATE webhook_endpoints SET ${sets.join(', ')} WHERE id = ? AND workspace_id = ? RETURNING ${ENDPOINT_COLUMNS}`,
    ...values,
    id,
    workspaceId,
  );
  if (rows.length === 0) return undefined;
  if (change.enabled === false) yield cancelPending(id, now);
  yield bumpWebhooks();
  return toEndpoint(rows[0] as Row);
}

function* deleteEndpoint(workspaceId: number, id: number): Script<boolean> {
  const found = yield q(
    'SELECT id FROM webhook_endpoints WHERE id = ? AND workspace_id = ?',
    id,
    workspaceId,
  );
  if (found.length === 0) return false;
  yield q('DELETE FROM webhook_deliveries WHERE endpoint_id = ?', id);
  yield q('DELETE FROM webhook_endpoints WHERE id = ?', id);
  yield bumpWebhooks();
  return true;
}

function* resend(workspaceId: number, endpointId: number, deliveryId: number, now: number): Script<boolean> {
  const rows = yield q(
    `SELECT d.event_id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.id = ? AND d.endpoint_id = ? AND e.workspace_id = ?`,
    deliveryId,
    endpointId,
    workspaceId,
  );
  const eventId = rows[0]?.event_id;
  if (eventId === undefined) return false;
  yield q(
    `INSERT INTO webhook_deliveries (event_id, endpoint_id, state, attempts, next_at, created_at, updated_at)
     VALUES (?, ?, 'pending', 0, ?, ?, ?)`,
    Number(eventId),
    endpointId,
    now,
    now,
    now,
  );
  return true;
}

/**
 * Due deliveries, each moved past its lease in the statement that picks it: on PostgreSQL the
 * rows another instance is claiming are skipped (FOR UPDATE SKIP LOCKED), on SQLite the writer's
 * lock already orders claims. Deliveries of a disabled endpoint are never due (they are cancelled).
 */
function* claim(now: number, limit: number, leaseMs: number, skipLocked: boolean): Script<ClaimedDelivery[]> {
  const rows = yield q(
    `UPDATE webhook_deliveries SET next_at = ?, attempts = attempts + 1, updated_at = ?
     WHERE id IN (SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_at <= ?
       ORDER BY next_at LIMIT ?${skipLocked ? ' FOR UPDATE SKIP LOCKED' : ''})
     RETURNING id, event_id, endpoint_id, attempts`,
    now + leaseMs,
    now,
    now,
    limit,
  );
  if (rows.length === 0) return [];
  const ids = rows.map((row) => Number(row.id));
  const details = yield q(
    `SELECT d.id, ev.message_id, ev.type, ev.body, ev.created_at, e.url, e.secret
     FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id
     LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.id IN (${ids.map(() => '?').join(', ')})`,
    ...ids,
  );
  const byId = new Map(details.map((row) => [Number(row.id), row]));
  return rows.flatMap((row) => {
    const detail = byId.get(Number(row.id));
    if (!detail) return [];
    return [
      {
        id: Number(row.id),
        messageId: String(detail.message_id),
        type: String(detail.type),
        body: String(detail.body),
        endpointId: row.endpoint_id === null ? null : Number(row.endpoint_id),
        url: detail.url === null ? null : String(detail.url),
        secret: detail.secret === null ? null : String(detail.secret),
        attempts: Number(row.attempts),
        createdAt: Number(detail.created_at),
      },
    ];
  });
}

function* purge(beforeMs: number): Script<number> {
  const gone = yield q(
    `DELETE FROM webhook_deliveries WHERE state <> 'pending' AND created_at < ? RETURNING id`,
    beforeMs,
  );
  yield q(
    `DELETE FROM webhook_events WHERE created_at < ?
     AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)`,
    beforeMs,
  );
  return gone.length;
}

export function webhookStore({ read, write }: ScriptRunner, skipLocked: boolean): WebhookStore {
  const endpointsOf = async (sql: string, ...params: Param[]) =>
    (await read(rowsOf(sql, ...params))).map(toEndpoint);
  return {
    createEndpoint: (endpoint) => write(createEndpoint(endpoint, Date.now())),
    listEndpoints: (workspaceId) =>
      endpointsOf(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE workspace_id = ? ORDER BY id`,
        workspaceId,
      ),
    findEndpoint: async (workspaceId, id) =>
      (
        await endpointsOf(
          `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE workspace_id = ? AND id = ?`,
          workspaceId,
          id,
        )
      )[0],
    updateEndpoint: (workspaceId, id, change) => write(updateEndpoint(workspaceId, id, change, Date.now())),
    deleteEndpoint: (workspaceId, id) => write(deleteEndpoint(workspaceId, id)),
    sendTo: async (endpointId, event) => {
      const [row] = await endpointsOf(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ?`,
        endpointId,
      );
      if (row) await write(writeEvent(event, false, endpointId));
    },
    resend: (workspaceId, endpointId, deliveryId) =>
      write(resend(workspaceId, endpointId, deliveryId, Date.now())),
    listDeliveries: async (endpointId, sinceMs, limit, beforeId) => {
      const rows = await read(
        rowsOf(
          `SELECT d.id, ev.message_id, ev.type, d.state, d.attempts, d.status_code, d.duration_ms, d.error,
               d.created_at, d.updated_at, d.next_at
             FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id
             WHERE d.endpoint_id = ? AND d.created_at >= ? AND d.id < ? ORDER BY d.id DESC LIMIT ?`,
          endpointId,
          sinceMs,
          beforeId ?? Number.MAX_SAFE_INTEGER,
          limit,
        ),
      );
      return rows.map(toDelivery);
    },
    claimDeliveries: (now, limit, leaseMs) => write(claim(now, limit, leaseMs, skipLocked)),
    finishDeliveries: (outcomes, now, policy) => write(finishDeliveries(outcomes, now, policy)),
    renewDeliveries: (held, until) => write(renewDeliveries(held, until)),
    nextDeliveryAt: async () => {
      const [row] = await read(
        rowsOf("SELECT MIN(next_at) AS at FROM webhook_deliveries WHERE state = 'pending'"),
      );
      return row?.at === null || row?.at === undefined ? null : Number(row.at);
    },
    pendingDeliveries: async () => {
      const [row] = await read(
        rowsOf("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE state = 'pending'"),
      );
      return Number(row?.n ?? 0);
    },
    webhookVersion: async () =>
      Number(
        mapFirst(
          await read(rowsOf('SELECT version FROM webhook_state WHERE id = 1')),
          (row) => row.version,
        ) ?? 0,
      ),
    clickSubscribers: async () => {
      const rows = await read(
        rowsOf(
          'SELECT DISTINCT workspace_id FROM webhook_endpoints WHERE enabled = true AND events LIKE ?',
          hears('link.clicked'),
        ),
      );
      return rows.map((row) => Number(row.workspace_id));
    },
    purgeDeliveries: (beforeMs) => write(purge(beforeMs)),
  };
}
