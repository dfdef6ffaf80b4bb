/** A link's takedown on either dialect, its link.disabled event written with it (docs/api.md §13–14). */
import type { Link } from '../../core/entities.ts';
import type { LinkEventSink } from '../../core/ports/webhook-store.ts';
import { linkEvent } from './outbox-scripts.ts';
import { LINK_COLUMNS, mapFirst, toLink } from './rows.ts';
import { q, type Script } from './script.ts';

/** Raised by every takedown: instances poll it and read the suspended set again. */
export const bumpTakedowns = () =>
  q('UPDATE abuse_state SET takedowns_version = takedowns_version + 1 WHERE id = 1');

export function* setLinkDisabled(
  id: number,
  reason: string | null,
  now: number,
  events: LinkEventSink | undefined,
): Script<Link | undefined> {
  if (reason === null) {
    const rows = yield q(
      `UPDATE links SET disabled_at = NULL, disabled_reason = NULL WHERE id = ? AND deleted_at IS NULL
       RETURNING ${LINK_COLUMNS}`,
      id,
    );
    yield bumpTakedowns();
    return mapFirst(rows, toLink);
  }
  // Only a live link not disabled yet changes (a second takedown waits for the first's row lock,
  // then finds it disabled): disabling again keeps the first time and reason, and tells no one.
  const changed = mapFirst(
    yield q(
      `UPDATE links SET disabled_at = ?, disabled_reason = ?
       WHERE id = ? AND deleted_at IS NULL AND disabled_at IS NULL RETURNING ${LINK_COLUMNS}`,
      now,
      reason,
      id,
    ),
    toLink,
  );
  yield bumpTakedowns();
  if (changed) {
    yield* linkEvent(events, 'link.disabled', changed);
    return changed;
  }
  return mapFirst(
    yield q(`SELECT ${LINK_COLUMNS} FROM links WHERE id = ? AND deleted_at IS NULL`, id),
    toLink,
  );
}
