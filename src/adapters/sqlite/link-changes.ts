/** The LinkStore's changes on SQLite: a link's new target, title, group or tags; tags and group counts. */
import type { LinkStore } from '../../core/ports/store.ts';
import { CHANGE_SQL, changeStatement, countMap, tagMap } from '../sql/link-change.ts';
import { linkEvent } from '../sql/outbox-scripts.ts';
import { mapRow, toLink } from '../sql/rows.ts';
import { type Connection, isUniqueViolation } from './connection.ts';
import { runNow } from './run-script.ts';

type Changes = Pick<LinkStore, 'updateLink' | 'tagsOf' | 'countLinksPerGroup'>;

/** Inside an open transaction: the link's tags replaced by these. */
export function setTags(conn: Connection, linkId: number, tags: readonly string[]): void {
  conn.stmt(CHANGE_SQL.dropTags).run(linkId);
  for (const tag of tags) conn.stmt(CHANGE_SQL.addTag).run(linkId, tag);
}

/** The links' counts per group, read on this connection's thread (a reader thread's: readers.ts). */
export function countPerGroupNow(conn: Connection, workspaceId: number): Map<number, number> {
  return countMap(conn.stmt(CHANGE_SQL.perGroup).all(workspaceId));
}

export function sqliteLinkChanges(conn: Connection, readers: Pick<LinkStore, 'countLinksPerGroup'>): Changes {
  return {
    async updateLink(workspaceId, domainId, code, change, events) {
      return conn.transaction(
        () => {
          const row = conn.stmt(CHANGE_SQL.liveId).get(workspaceId, domainId, code);
          if (!row) return { kind: 'not-found' } as const;
          const id = row.id as number;
          const { sql, values } = changeStatement(change, Date.now());
          try {
            conn.stmt(sql).run(...values, id);
          } catch (error) {
            if (
              !change.target ||
              !isUniqueViolation(error, 'links.account_id', 'links.domain_id', 'links.url_hash')
            )
              throw error;
            const existing = mapRow(
              conn.stmt(CHANGE_SQL.liveByUrlHash).get(workspaceId, domainId, change.target.urlHash),
              toLink,
            );
            if (!existing) throw error;
            return { kind: 'duplicate', existing } as const;
          }
          if (change.tags) setTags(conn, id, change.tags);
          const link = mapRow(conn.stmt(CHANGE_SQL.byId).get(id), toLink);
          if (!link) throw new Error(`link ${code} vanished in its own transaction`);
          runNow(conn, linkEvent(events, 'link.updated', link));
          return { kind: 'updated', link } as const;
        },
        (result) => result.kind === 'updated',
      );
    },

    async tagsOf(linkIds) {
      if (linkIds.length === 0) return new Map();
      const marks = linkIds.map(() => '?').join(', ');
      return tagMap(
        conn.stmt(`SELECT link_id, tag FROM link_tags WHERE link_id IN (${marks})`).all(...linkIds),
      );
    },

    // Grows with the account's links: a reader thread counts them (readers.ts).
    countLinksPerGroup: (workspaceId) => readers.countLinksPerGroup(workspaceId),
  };
}
