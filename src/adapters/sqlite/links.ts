/** LinkStore on SQLite: links, their insertion within quota, bulk insertion and soft deletion. */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Link, NewLink } from '../../core/entities.ts';
import type { LinkPage, LinkQuery } from '../../core/link-query.ts';
import type { InsertLinkResult, LinkStore } from '../../core/ports/store.ts';
import type { LinkEventSink } from '../../core/ports/webhook-store.ts';
import { linkListing, pageOf } from '../sql/link-list.ts';
import { linkEvent } from '../sql/outbox-scripts.ts';
import {
  LINK_COLUMNS,
  mapRow,
  NEW_LINK_COLUMNS,
  NEW_LINK_PLACEHOLDERS,
  newLinkValues,
  toLink,
} from '../sql/rows.ts';
import { type Connection, isUniqueViolation } from './connection.ts';
import { setTags, sqliteLinkChanges } from './link-changes.ts';
import { runNow } from './run-script.ts';
import type { WriteQueue } from './write-queue.ts';

// The redirect's cache-miss path: one search of the unique index on (domain, code).
export const FIND_LINK_BY_CODE = `SELECT ${LINK_COLUMNS} FROM links
  WHERE domain_id = ? AND code = ? AND deleted_at IS NULL`;
const FIND_LIVE_BY_URL_HASH = `SELECT ${LINK_COLUMNS} FROM links
  WHERE account_id = ? AND domain_id = ? AND url_hash = ? AND deleted_at IS NULL`;
const INSERT_LINK = `INSERT INTO links (${NEW_LINK_COLUMNS})
  VALUES (${NEW_LINK_PLACEHOLDERS(() => '?')}) RETURNING ${LINK_COLUMNS}`;
// Takes the slot only while the account is under its plan's quota; 0 rows changed = quota full.
const TAKE_QUOTA_SLOT = `UPDATE workspaces SET link_count = link_count + 1
  WHERE id = ? AND link_count < (SELECT url_quota FROM plans WHERE plans.id = workspaces.plan_id)`;
const INSERT_BULK_LINK = `INSERT INTO links (${NEW_LINK_COLUMNS}) VALUES (${NEW_LINK_PLACEHOLDERS(() => '?')})`;
const ADD_LINK_COUNT = 'UPDATE workspaces SET link_count = link_count + ? WHERE id = ?';
/**
 * Rows per bulk transaction: holds the write lock (and, node:sqlite being synchronous, the thread)
 * for about 0.3 s at 1M rows. Larger chunks seed faster (50,000: about 2x) but stall other writers longer.
 */
const BULK_CHUNK = 10_000;
const FREE_QUOTA_SLOT = 'UPDATE workspaces SET link_count = link_count - 1 WHERE id = ?';
const SOFT_DELETE = `UPDATE links SET deleted_at = ?
  WHERE account_id = ? AND domain_id = ? AND code = ? AND deleted_at IS NULL RETURNING ${LINK_COLUMNS}`;

// One visit of a limited link, or nothing when its limit is reached: the row lock makes it exact.
const TAKE_VISIT = `UPDATE links SET limit_used = limit_used + 1
  WHERE id = ? AND deleted_at IS NULL AND max_clicks IS NOT NULL AND limit_used < max_clicks`;

const findLiveByUrlHash = (
  conn: Connection,
  workspaceId: number,
  domainId: number,
  urlHash: string,
): Link | undefined => mapRow(conn.stmt(FIND_LIVE_BY_URL_HASH).get(workspaceId, domainId, urlHash), toLink);

/** Creating links: one within the quota (creates made at once share a commit), or many at once. */
function sqliteLinkInserts(
  conn: Connection,
  writes: WriteQueue,
): Pick<LinkStore, 'insertLinkWithinQuota' | 'insertLinksBulk'> {
  /** Inside the open transaction: the insert decides duplicate and code, then the quota. */
  const insert = (link: NewLink, events: LinkEventSink | undefined): InsertLinkResult => {
    let created: Link;
    try {
      const row = conn.stmt(INSERT_LINK).get(...newLinkValues(link, Date.now()));
      if (!row) throw new Error('INSERT … RETURNING gave no row');
      created = toLink(row);
    } catch (error) {
      const duplicateRow = isUniqueViolation(error, 'links.account_id', 'links.domain_id', 'links.url_hash');
      const codeTaken = isUniqueViolation(error, 'links.domain_id', 'links.code');
      if (!duplicateRow && !codeTaken) throw error;
      // A failed statement leaves the transaction open in SQLite, so this read sees the same
      // snapshot that refused the row. When the code collides too, the duplicate still wins:
      // a new code would only meet the same duplicate.
      const existing = findLiveByUrlHash(conn, link.workspaceId, link.domainId, link.urlHash);
      if (existing) return { kind: 'duplicate', existing };
      if (codeTaken) return { kind: 'code-taken' };
      throw error;
    }
    if (conn.stmt(TAKE_QUOTA_SLOT).run(link.workspaceId).changes === 0) return { kind: 'quota-exceeded' };
    if (link.tags?.length) setTags(conn, created.id, link.tags);
    runNow(conn, linkEvent(events, 'link.created', created));
    return { kind: 'created', link: created };
  };

  /** Inside the open transaction: plain inserts (a violation throws), then each account's count. */
  const insertChunk = (links: readonly NewLink[]): void => {
    const insertLink = conn.stmt(INSERT_BULK_LINK);
    const perAccount = new Map<number, number>();
    const now = Date.now();
    for (const link of links) {
      const { lastInsertRowid } = insertLink.run(...newLinkValues(link, now));
      if (link.tags?.length) setTags(conn, Number(lastInsertRowid), link.tags);
      perAccount.set(link.workspaceId, (perAccount.get(link.workspaceId) ?? 0) + 1);
    }
    for (const [workspaceId, added] of perAccount) conn.stmt(ADD_LINK_COUNT).run(added, workspaceId);
  };

  return {
    insertLinkWithinQuota(link, events) {
      // Creates made at once share a commit, each in its savepoint; a refused one rolls back itself.
      return writes.write(
        () => insert(link, events),
        (result) => result.kind === 'created',
      );
    },

    async insertLinksBulk(links) {
      for (let start = 0; start < links.length; start += BULK_CHUNK) {
        // node:sqlite blocks the thread: between chunks, let the redirect and the click flush run.
        if (start > 0) await nextTurn();
        const chunk = links.slice(start, start + BULK_CHUNK);
        conn.transaction(() => insertChunk(chunk));
      }
    },
  };
}

/** Visit limits in the store (without Redis): a visit taken within the limit, and how many were. */
function sqliteVisitLimits(
  conn: Connection,
  writes: WriteQueue,
): Pick<LinkStore, 'takeVisit' | 'visitsTaken'> {
  return {
    async takeVisit(linkId) {
      // A write on the redirect's path: queued, so it waits for the click writer's lock without
      // stopping the thread, and visits taken at once share a commit.
      return writes.write(() => conn.stmt(TAKE_VISIT).run(linkId).changes === 1);
    },

    async visitsTaken(linkId) {
      return Number(conn.stmt('SELECT limit_used FROM links WHERE id = ?').get(linkId)?.limit_used ?? 0);
    },
  };
}

export function sqliteLinkStore(
  conn: Connection,
  writes: WriteQueue,
  readers: Pick<LinkStore, 'listLinks' | 'countLinksPerGroup'>,
): LinkStore {
  return {
    async findLiveLinkByUrlHash(workspaceId, domainId, urlHash) {
      return findLiveByUrlHash(conn, workspaceId, domainId, urlHash);
    },

    async countLiveLinks(workspaceId) {
      const row = conn
        // The counter the quota is enforced on, kept in every insert's and delete's transaction:
        // constant time, where counting rows took 0.4 s for an account of 1M links.
        .stmt('SELECT link_count AS n FROM workspaces WHERE id = ?')
        .get(workspaceId);
      return (row?.n as number | undefined) ?? 0;
    },

    async isCodeIssued(domainId, code) {
      return (
        conn.stmt('SELECT 1 FROM links WHERE domain_id = ? AND code = ?').get(domainId, code) !== undefined
      );
    },

    findLinkByCodeNow(domainId, code) {
      return mapRow(conn.stmt(FIND_LINK_BY_CODE).get(domainId, code), toLink);
    },

    async findLinkByCode(domainId, code) {
      return mapRow(conn.stmt(FIND_LINK_BY_CODE).get(domainId, code), toLink);
    },

    async deleteLink(workspaceId, domainId, code, events) {
      return conn.transaction(() => {
        const deleted = mapRow(conn.stmt(SOFT_DELETE).get(Date.now(), workspaceId, domainId, code), toLink);
        if (!deleted) return false;
        conn.stmt(FREE_QUOTA_SLOT).run(workspaceId);
        runNow(conn, linkEvent(events, 'link.deleted', deleted));
        return true;
      });
    },

    ...sqliteLinkInserts(conn, writes),
    ...sqliteVisitLimits(conn, writes),
    ...sqliteLinkList(conn, readers),
    ...sqliteLinkChanges(conn, readers),
  };
}

export const FIND_LINK_OF_ACCOUNT = `SELECT ${LINK_COLUMNS} FROM links
  WHERE domain_id = ? AND code = ? AND account_id = ? AND deleted_at IS NULL`;

/** A page of an account's links, read on this connection's thread (a reader thread's: readers.ts). */
export function listLinksNow(conn: Connection, workspaceId: number, query: LinkQuery): LinkPage {
  const sql = linkListing(workspaceId, query, () => '?');
  const rows = conn
    .stmt(sql.select)
    .all(...sql.selectParams)
    .map(toLink);
  const counted = sql.count === undefined ? undefined : conn.stmt(sql.count).get(...sql.countParams);
  const total = sql.count === undefined ? undefined : ((counted?.n as number | undefined) ?? 0);
  return { ...pageOf(rows, query.limit, sql.reversed), total };
}

function sqliteLinkList(
  conn: Connection,
  readers: Pick<LinkStore, 'listLinks'>,
): Pick<LinkStore, 'listLinks' | 'findLinkOfWorkspace'> {
  return {
    listLinks: (workspaceId, query) => readers.listLinks(workspaceId, query),

    async findLinkOfWorkspace(workspaceId, domainId, code) {
      return mapRow(conn.stmt(FIND_LINK_OF_ACCOUNT).get(domainId, code, workspaceId), toLink);
    },
  };
}
