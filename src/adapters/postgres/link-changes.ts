/** The LinkStore's changes on PostgreSQL: a link's new target, title, group or tags; tags and group counts. */
import type { LinkChange } from '../../core/entities.ts';
import type { LinkStore, UpdateLinkResult } from '../../core/ports/store.ts';
import type { LinkEventSink } from '../../core/ports/webhook-store.ts';
import { CHANGE_SQL, changeStatement, countMap, tagMap } from '../sql/link-change.ts';
import { linkEvent } from '../sql/outbox-scripts.ts';
import { mapFirst, toLink } from '../sql/rows.ts';
import { type Db, isUniqueViolation, numbered, query, type Tx, transaction } from './client.ts';
import { runIn } from './run-script.ts';

type Changes = Pick<LinkStore, 'updateLink' | 'tagsOf' | 'countLinksPerGroup'>;

const SQL = Object.fromEntries(Object.entries(CHANGE_SQL).map(([name, text]) => [name, numbered(text)])) as {
  [name in keyof typeof CHANGE_SQL]: string;
};
const ADD_TAGS = 'INSERT INTO link_tags (link_id, tag) SELECT $1, tag FROM unnest($2::text[]) AS t (tag)';
const TAGS_OF = 'SELECT link_id, tag FROM link_tags WHERE link_id = ANY($1::bigint[])';
const NOT_FOUND = Symbol('not-found');

/** Inside an open transaction: the link's tags replaced by these. */
export async function setTags(tx: Tx, linkId: number, tags: readonly string[]): Promise<void> {
  await query(tx, SQL.dropTags, [linkId]);
  await addTags(tx, linkId, tags);
}

/** Tags of a link that has none yet. */
export async function addTags(tx: Tx, linkId: number, tags: readonly string[]): Promise<void> {
  if (tags.length > 0) await query(tx, ADD_TAGS, [linkId, [...tags]]);
}

async function change(
  tx: Tx,
  workspaceId: number,
  domainId: number,
  code: string,
  linkChange: LinkChange,
  events: LinkEventSink | undefined,
) {
  const row = mapFirst(
    await query(tx, SQL.liveId, [workspaceId, domainId, code]),
    (found) => found.id as number,
  );
  if (row === undefined) return NOT_FOUND;
  const { sql, values } = changeStatement(linkChange, Date.now());
  await query(tx, numbered(sql), [...values, row]);
  if (linkChange.tags) await setTags(tx, row, linkChange.tags);
  const link = mapFirst(await query(tx, SQL.byId, [row]), toLink);
  if (!link) throw new Error(`link ${code} vanished in its own transaction`);
  await runIn(tx, linkEvent(events, 'link.updated', link));
  return link;
}

export function postgresLinkChanges(db: Db): Changes {
  return {
    async updateLink(workspaceId, domainId, code, linkChange, events): Promise<UpdateLinkResult> {
      try {
        const link = await transaction(db, (tx) =>
          change(tx, workspaceId, domainId, code, linkChange, events),
        );
        return link === NOT_FOUND ? { kind: 'not-found' } : { kind: 'updated', link };
      } catch (error) {
        // The new target is another live link's: the statement failed, the transaction rolled back.
        if (!linkChange.target || !isUniqueViolation(error, 'links_live_url')) throw error;
        const existing = mapFirst(
          await query(db, SQL.liveByUrlHash, [workspaceId, domainId, linkChange.target.urlHash]),
          toLink,
        );
        if (!existing) throw error;
        return { kind: 'duplicate', existing };
      }
    },

    async tagsOf(linkIds) {
      if (linkIds.length === 0) return new Map();
      return tagMap(await query(db, TAGS_OF, [[...linkIds]]));
    },

    async countLinksPerGroup(workspaceId) {
      return countMap(await query(db, SQL.perGroup, [workspaceId]));
    },
  };
}
