/** The outbox written inside a change's own transaction, on either dialect (adapters/sql/script.ts). */
import type { Link } from '../../core/entities.ts';
import type { LinkEventSink } from '../../core/ports/webhook-store.ts';
import type { LinkChangeType, NewEvent } from '../../core/webhook-events.ts';
import { GROUP_COLUMNS, mapFirst, toGroup } from './rows.ts';
import { q, type Script } from './script.ts';

/** An endpoint hears a type: its `events` holds it between spaces. */
export const hears = (type: string) => `% ${type} %`;

const SUBSCRIBED = `SELECT 1 AS one FROM webhook_endpoints
  WHERE workspace_id = ? AND enabled = true AND events LIKE ? LIMIT 1`;
const INSERT_EVENT = `INSERT INTO webhook_events (message_id, workspace_id, type, body, created_at)
  VALUES (?, ?, ?, ?, ?) RETURNING id`;
/** One pending delivery per enabled endpoint of the workspace that hears the type. */
const FAN_OUT = `INSERT INTO webhook_deliveries
  (event_id, endpoint_id, state, attempts, next_at, created_at, updated_at)
  SELECT ?, id, 'pending', 0, ?, ?, ? FROM webhook_endpoints
  WHERE workspace_id = ? AND enabled = true AND events LIKE ?`;
const TO_ONE = `INSERT INTO webhook_deliveries
  (event_id, endpoint_id, state, attempts, next_at, created_at, updated_at)
  VALUES (?, ?, 'pending', 0, ?, ?, ?)`;

/** Stores the event and one delivery per endpoint that hears it (and the stream's, when on). */
export function* writeEvent(event: NewEvent, stream: boolean, only?: number): Script<number> {
  const [row] = yield q(INSERT_EVENT, event.id, event.workspaceId, event.type, event.body, event.at);
  const id = Number(row?.id);
  const at = event.at;
  if (only !== undefined) {
    yield q(TO_ONE, id, only, at, at, at);
    return id;
  }
  yield q(FAN_OUT, id, at, at, at, event.workspaceId, hears(event.type));
  if (stream) yield q(TO_ONE, id, null, at, at, at);
  return id;
}

/**
 * The event of a link's change, written in the change's transaction: nothing is read or made
 * unless an endpoint of the workspace hears the type, or the stream is on.
 */
export function* linkEvent(sink: LinkEventSink | undefined, type: LinkChangeType, link: Link): Script<void> {
  if (!sink) return;
  if (!sink.stream) {
    const subscribed = yield q(SUBSCRIBED, link.workspaceId, hears(type));
    if (subscribed.length === 0) return;
  }
  const tagRows = yield q('SELECT tag FROM link_tags WHERE link_id = ? ORDER BY tag', link.id);
  const tags = tagRows.map((row) => String(row.tag));
  const group =
    link.groupId === null
      ? undefined
      : mapFirst(yield q(`SELECT ${GROUP_COLUMNS} FROM groups WHERE id = ?`, link.groupId), toGroup);
  yield* writeEvent(sink.render(type, { link, tags, group }), sink.stream);
}

/** Events per statement when many are written at once (a flush's clicks). */
const EVENTS_PER_STATEMENT = 100;

/**
 * Many events of one type at once, each with a delivery per endpoint of its workspace that hears
 * it (and the stream's): three statements per hundred events, on either dialect.
 */
export function* writeEvents(events: readonly NewEvent[], stream: boolean): Script<void> {
  for (let start = 0; start < events.length; start += EVENTS_PER_STATEMENT) {
    const part = events.slice(start, start + EVENTS_PER_STATEMENT);
    const rows = yield q(
      `INSERT INTO webhook_events (message_id, workspace_id, type, body, created_at)
       VALUES ${part.map(() => '(?, ?, ?, ?, ?)').join(', ')} RETURNING id`,
      ...part.flatMap((event) => [event.id, event.workspaceId, event.type, event.body, event.at]),
    );
    const ids = rows.map((row) => Number(row.id));
    const marks = ids.map(() => '?').join(', ');
    // Each delivery is made when its event was.
    yield q(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, state, attempts, next_at, created_at, updated_at)
       SELECT ev.id, e.id, 'pending', 0, ev.created_at, ev.created_at, ev.created_at
       FROM webhook_events ev JOIN webhook_endpoints e
         ON e.workspace_id = ev.workspace_id AND e.enabled = true AND e.events LIKE ('% ' || ev.type || ' %')
       WHERE ev.id IN (${marks})`,
      ...ids,
    );
    if (stream)
      yield q(
        `INSERT INTO webhook_deliveries (event_id, endpoint_id, state, attempts, next_at, created_at, updated_at)
         SELECT id, NULL, 'pending', 0, created_at, created_at, created_at FROM webhook_events WHERE id IN (${marks})`,
        ...ids,
      );
  }
}
