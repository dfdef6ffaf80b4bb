/** The bulk insert of links on PostgreSQL: one statement per chunk, whatever its size. */
import type { NewLink } from '../../core/entities.ts';
import type { LinkStore } from '../../core/ports/store.ts';
import { addTags } from '../sql/link-change-scripts.ts';
import { type Db, query, type Tx, transaction } from './client.ts';
import { runIn } from './run-script.ts';

// One array parameter per column: far from the 65,535-parameter limit a multi-row VALUES list would meet.
const INSERT_BULK = `INSERT INTO links
  (code, workspace_id, group_id, long_url, normalized_url, url_hash, title, domain_id, created_at)
  SELECT code, workspace_id, group_id, long_url, normalized_url, url_hash, title, domain_id, $9
  FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[],
      $8::bigint[])
    AS t (code, workspace_id, group_id, long_url, normalized_url, url_hash, title, domain_id)
  RETURNING id, code, domain_id`;
const ADD_LINK_COUNTS = `UPDATE workspaces SET link_count = workspaces.link_count + v.added
  FROM unnest($1::bigint[], $2::bigint[]) AS v (id, added) WHERE workspaces.id = v.id`;
/** Rows per bulk transaction, as on SQLite: big enough to be fast, small enough not to hold locks long. */
const BULK_CHUNK = 10_000;

/** Inside the open transaction: the chunk in one statement (a violation throws), then each account's count. */
async function insertChunk(tx: Tx, links: readonly NewLink[]): Promise<void> {
  const perAccount = new Map<number, number>();
  for (const link of links) perAccount.set(link.workspaceId, (perAccount.get(link.workspaceId) ?? 0) + 1);
  const inserted = await query(tx, INSERT_BULK, [
    links.map((link) => link.code),
    links.map((link) => link.workspaceId),
    links.map((link) => link.groupId),
    links.map((link) => link.longUrl),
    links.map((link) => link.normalizedUrl),
    links.map((link) => link.urlHash),
    links.map((link) => link.title),
    links.map((link) => link.domainId),
    Date.now(),
  ]);
  await query(tx, ADD_LINK_COUNTS, [[...perAccount.keys()], [...perAccount.values()]]);
  const ids = new Map(inserted.map((row) => [`${row.domain_id}/${row.code}`, row.id as number]));
  for (const link of links) {
    const id = ids.get(`${link.domainId}/${link.code}`);
    if (link.tags?.length && id !== undefined) await runIn(tx, addTags(id, link.tags));
  }
}

export function postgresBulkLinks(db: Db): Pick<LinkStore, 'insertLinksBulk'> {
  return {
    async insertLinksBulk(links) {
      for (let start = 0; start < links.length; start += BULK_CHUNK) {
        const chunk = links.slice(start, start + BULK_CHUNK);
        await transaction(db, (tx) => insertChunk(tx, chunk));
      }
    },
  };
}
