/** LinkStore on PostgreSQL: links, their insertion within quota, listing and soft deletion. */
import type { NewLink } from '../../core/entities.ts';
import type { InsertLinkResult, LinkStore } from '../../core/ports/store.ts';
import type { LinkEventSink } from '../../core/ports/webhook-store.ts';
import { linkListing, pageOf } from '../sql/link-list.ts';
import { linkEvent } from '../sql/outbox-scripts.ts';
import {
  LINK_COLUMNS,
  mapFirst,
  NEW_LINK_COLUMNS,
  NEW_LINK_PLACEHOLDERS,
  newLinkValues,
  toLink,
} from '../sql/rows.ts';
import { type Db, type Param, query, type Tx, transaction } from './client.ts';
import { addTags, postgresLinkChanges } from './link-changes.ts';
import { runIn } from './run-script.ts';

// The redirect's cache-miss path: one search of the unique index on (domain, code).
export const FIND_LINK_BY_CODE = `SELECT ${LINK_COLUMNS} FROM links
  WHERE domain_id = $1 AND code = $2 AND deleted_at IS NULL`;
const FIND_LINK_OF_ACCOUNT = `SELECT ${LINK_COLUMNS} FROM links
  WHERE domain_id = $1 AND code = $2 AND account_id = $3 AND deleted_at IS NULL`;
const FIND_LIVE_BY_URL_HASH = `SELECT ${LINK_COLUMNS} FROM links
  WHERE account_id = $1 AND domain_id = $2 AND url_hash = $3 AND deleted_at IS NULL`;
/**
 * No conflict target: a clash on either unique index (links_domain_code_unique, or links_live_url for a
 * live duplicate) makes the statement insert nothing and return no row, instead of raising an
 * error that would abort the whole transaction. The reads after it tell the two apart.
 */
const INSERT_LINK = `INSERT INTO links (${NEW_LINK_COLUMNS})
  VALUES (${NEW_LINK_PLACEHOLDERS((n) => `$${n}`)}) ON CONFLICT DO NOTHING RETURNING ${LINK_COLUMNS}`;
const CODE_EXISTS = 'SELECT 1 FROM links WHERE domain_id = $1 AND code = $2';
// Takes the slot only while the account is under its plan's quota; no row back = quota full.
const TAKE_QUOTA_SLOT = `UPDATE workspaces SET link_count = link_count + 1
  WHERE id = $1 AND link_count < (SELECT url_quota FROM plans WHERE plans.id = workspaces.plan_id)
  RETURNING link_count`;
const FREE_QUOTA_SLOT = 'UPDATE workspaces SET link_count = link_count - 1 WHERE id = $1';
const SOFT_DELETE = `UPDATE links SET deleted_at = $1
  WHERE account_id = $2 AND domain_id = $3 AND code = $4 AND deleted_at IS NULL RETURNING ${LINK_COLUMNS}`;
// One statement per chunk whatever its size: one array parameter per column, far from the
// 65,535-parameter limit a multi-row VALUES list would meet.
const INSERT_BULK = `INSERT INTO links
  (code, account_id, group_id, long_url, normalized_url, url_hash, title, domain_id, created_at)
  SELECT code, account_id, group_id, long_url, normalized_url, url_hash, title, domain_id, $9
  FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[],
      $8::bigint[])
    AS t (code, account_id, group_id, long_url, normalized_url, url_hash, title, domain_id)
  RETURNING id, code, domain_id`;
const ADD_LINK_COUNTS = `UPDATE workspaces SET link_count = workspaces.link_count + v.added
  FROM unnest($1::bigint[], $2::bigint[]) AS v (id, added) WHERE workspaces.id = v.id`;
/** Rows per bulk transaction, as on SQLite: big enough to be fast, small enough not to hold locks long. */
const BULK_CHUNK = 10_000;
/** A live duplicate that vanishes between the insert and the read is retried; more is a bug. */
const INSERT_ATTEMPTS = 3;

// One visit of a limited link, or nothing when its limit is reached: the row lock makes it exact.
const TAKE_VISIT = `UPDATE links SET limit_used = limit_used + 1
  WHERE id = $1 AND deleted_at IS NULL AND max_clicks IS NOT NULL AND limit_used < max_clicks`;

/**
 * Inside the open transaction: the insert decides duplicate and code, then the quota.
 *
 * READ COMMITTED is enough. A concurrent insert of the same URL or code waits in the unique
 * index for the first writer's transaction to end: if it commits, ON CONFLICT skips the row, and
 * the next statement, taking a fresh snapshot, sees the committed link; if it rolls back (quota),
 * the insert goes ahead. The quota UPDATE locks the account row, so concurrent takers queue on it
 * and each re-checks `link_count < quota` against the latest committed count before writing.
 * Neither rule depends on what a snapshot saw, so no stricter isolation (and no retry loop for
 * serialization failures) is needed.
 */
async function insert(tx: Tx, link: NewLink, events: LinkEventSink | undefined): Promise<InsertLinkResult> {
  const values: Param[] = newLinkValues(link, Date.now());
  for (let attempt = 1; attempt <= INSERT_ATTEMPTS; attempt++) {
    const created = mapFirst(await query(tx, INSERT_LINK, values), toLink);
    if (created) {
      await addTags(tx, created.id, link.tags ?? []);
      // Last before the commit: the account row stays locked for one statement and the commit.
      // Over quota, the transaction rolls back with the link and its tags.
      const slot = await query(tx, TAKE_QUOTA_SLOT, [link.workspaceId]);
      if (slot.length === 0) return { kind: 'quota-exceeded' };
      await runIn(tx, linkEvent(events, 'link.created', created));
      return { kind: 'created', link: created };
    }
    // Nothing inserted: a live duplicate or a taken code. The duplicate wins when both apply,
    // as on SQLite: a new code would only meet the same duplicate.
    const existing = mapFirst(
      await query(tx, FIND_LIVE_BY_URL_HASH, [link.workspaceId, link.domainId, link.urlHash]),
      toLink,
    );
    if (existing) return { kind: 'duplicate', existing };
    if ((await query(tx, CODE_EXISTS, [link.domainId, link.code])).length > 0) return { kind: 'code-taken' };
    // Neither: the duplicate that refused the row was deleted in between. Try again.
  }
  throw new Error(`link ${link.code} was refused ${INSERT_ATTEMPTS} times without a visible conflict`);
}

/** Visit limits in the store (without Redis): a visit taken within the limit, and how many were. */
function postgresVisitLimits(db: Db): Pick<LinkStore, 'takeVisit' | 'visitsTaken'> {
  return {
    async takeVisit(linkId) {
      return (await query(db, `${TAKE_VISIT} RETURNING id`, [linkId])).length === 1;
    },

    async visitsTaken(linkId) {
      return Number(
        (await query(db, 'SELECT limit_used FROM links WHERE id = $1', [linkId]))[0]?.limit_used ?? 0,
      );
    },
  };
}

export function postgresLinkStore(db: Db): LinkStore {
  return {
    async findLiveLinkByUrlHash(workspaceId, domainId, urlHash) {
      return mapFirst(await query(db, FIND_LIVE_BY_URL_HASH, [workspaceId, domainId, urlHash]), toLink);
    },

    async countLiveLinks(workspaceId) {
      // The quota counter, kept in every insert's and delete's transaction: constant time.
      const rows = await query(db, 'SELECT link_count AS n FROM workspaces WHERE id = $1', [workspaceId]);
      return (rows[0]?.n as number | undefined) ?? 0;
    },

    async insertLinkWithinQuota(link, events) {
      return transaction(
        db,
        (tx) => insert(tx, link, events),
        (result) => result.kind === 'created',
      );
    },

    async isCodeIssued(domainId, code) {
      return (await query(db, CODE_EXISTS, [domainId, code])).length > 0;
    },

    async findLinkByCode(domainId, code) {
      return mapFirst(await query(db, FIND_LINK_BY_CODE, [domainId, code]), toLink);
    },

    async findLinkOfWorkspace(workspaceId, domainId, code) {
      return mapFirst(await query(db, FIND_LINK_OF_ACCOUNT, [domainId, code, workspaceId]), toLink);
    },

    async listLinks(workspaceId, linkQuery) {
      const sql = linkListing(workspaceId, linkQuery, (n) => `$${n}`);
      const [rows, counted] = await Promise.all([
        query(db, sql.select, sql.selectParams),
        sql.count === undefined ? undefined : query(db, sql.count, sql.countParams),
      ]);
      const links = rows.map(toLink);
      const total = counted === undefined ? undefined : Number(counted[0]?.n ?? 0);
      return { ...pageOf(links, linkQuery.limit, sql.reversed), total };
    },

    async insertLinksBulk(links) {
      for (let start = 0; start < links.length; start += BULK_CHUNK) {
        const chunk = links.slice(start, start + BULK_CHUNK);
        await transaction(db, (tx) => insertChunk(tx, chunk));
      }
    },

    async deleteLink(workspaceId, domainId, code, events) {
      return transaction(db, async (tx) => {
        const deleted = mapFirst(
          await query(tx, SOFT_DELETE, [Date.now(), workspaceId, domainId, code]),
          toLink,
        );
        if (!deleted) return false;
        await query(tx, FREE_QUOTA_SLOT, [workspaceId]);
        await runIn(tx, linkEvent(events, 'link.deleted', deleted));
        return true;
      });
    },

    ...postgresVisitLimits(db),
    ...postgresLinkChanges(db),
  };
}

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
    if (link.tags?.length && id !== undefined) await addTags(tx, id, link.tags);
  }
}
