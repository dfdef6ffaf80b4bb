/** LinkStore on either dialect: links, their insertion within quota, listing, soft deletion, visit limits. */
import type { Link, NewLink } from '../../core/entities.ts';
import type { LinkPage, LinkQuery } from '../../core/link-query.ts';
import type { InsertLinkResult, LinkStore } from '../../core/ports/store.ts';
import type { LinkEventSink } from '../../core/ports/webhook-store.ts';
import { aliasStore, isAlias } from './alias-scripts.ts';
import { addTags, linkChangeStore, liveLinkByUrlHash } from './link-change-scripts.ts';
import { type ListingSql, linkListing, pageOf, type TextIndex } from './link-list.ts';
import { textIndexFor } from './link-text-search.ts';
import { linkEvent } from './outbox-scripts.ts';
import {
  LINK_COLUMNS,
  mapFirst,
  NEW_LINK_COLUMNS,
  NEW_LINK_PLACEHOLDERS,
  newLinkValues,
  REDIRECT_LINK_COLUMNS,
  type Row,
  toLink,
} from './rows.ts';
import { type Param, q, rowsOf, type Script, type ScriptRunner } from './script.ts';

const FIND_LINK_BY_CODE = `SELECT ${LINK_COLUMNS} FROM links
  WHERE domain_id = ? AND code = ? AND deleted_at IS NULL`;
// The redirect's cache-miss path on an embedded store: one search of the unique index on (domain, code).
export const FIND_REDIRECT_LINK = `SELECT ${REDIRECT_LINK_COLUMNS} FROM links
  WHERE domain_id = ? AND code = ? AND deleted_at IS NULL`;
const FIND_LINK_OF_WORKSPACE = `SELECT ${LINK_COLUMNS} FROM links
  WHERE domain_id = ? AND code = ? AND workspace_id = ? AND deleted_at IS NULL`;
/**
 * No conflict target: a clash on either unique index (links_domain_code_unique, or links_live_url for a
 * live duplicate) makes the statement insert nothing and return no row, instead of raising an
 * error that would abort the whole transaction on PostgreSQL. The reads after it tell the two apart.
 */
const INSERT_LINK = `INSERT INTO links (${NEW_LINK_COLUMNS})
  VALUES (${NEW_LINK_PLACEHOLDERS(() => '?')}) ON CONFLICT DO NOTHING RETURNING ${LINK_COLUMNS}`;
// A code is issued once its domain has it as a link's code or alias (alias-scripts.ts).
const CODE_EXISTS = `SELECT 1 AS found FROM links WHERE domain_id = ? AND code = ?
  UNION ALL SELECT 1 AS found FROM link_aliases WHERE domain_id = ? AND code = ?`;
// Takes the slot only while the account is under its plan's quota; no row back = quota full.
const TAKE_QUOTA_SLOT = `UPDATE workspaces SET link_count = link_count + 1
  WHERE id = ? AND link_count < (SELECT url_quota FROM plans WHERE plans.id = workspaces.plan_id)
  RETURNING link_count`;
const FREE_QUOTA_SLOT = 'UPDATE workspaces SET link_count = link_count - 1 WHERE id = ?';
const SOFT_DELETE = `UPDATE links SET deleted_at = ?
  WHERE workspace_id = ? AND domain_id = ? AND code = ? AND deleted_at IS NULL RETURNING ${LINK_COLUMNS}`;
// One visit of a limited link, or nothing when its limit is reached: the row lock makes it exact.
const TAKE_VISIT = `UPDATE links SET limit_used = limit_used + 1
  WHERE id = ? AND deleted_at IS NULL AND max_clicks IS NOT NULL AND limit_used < max_clicks RETURNING id`;
/** A live duplicate that vanishes between the insert and the read is retried; more is a bug. */
const INSERT_ATTEMPTS = 3;

/**
 * The insert decides duplicate and code, then the quota; run in one transaction that commits only
 * when the link was created (over quota, the link and its tags roll back).
 *
 * On PostgreSQL, READ COMMITTED is enough. A concurrent insert of the same URL or code waits in the
 * unique index for the first writer's transaction to end: if it commits, ON CONFLICT skips the row,
 * and the next statement, taking a fresh snapshot, sees the committed link; if it rolls back
 * (quota), the insert goes ahead. The quota UPDATE locks the account row, so concurrent takers
 * queue on it and each re-checks `link_count < quota` against the latest committed count before
 * writing. Neither rule depends on what a snapshot saw, so no stricter isolation (and no retry loop
 * for serialization failures) is needed. On SQLite the writer lock is held throughout, so the reads
 * always see what refused the row.
 */
export function* createLink(link: NewLink, events: LinkEventSink | undefined): Script<InsertLinkResult> {
  const values = newLinkValues(link, Date.now());
  for (let attempt = 1; attempt <= INSERT_ATTEMPTS; attempt++) {
    const created = mapFirst(yield q(INSERT_LINK, ...values), toLink);
    if (created) {
      // A former code of a renamed link: checked after the insert, as a rename checks (renameCode).
      if (yield* isAlias(link.domainId, link.code)) return { kind: 'code-taken' };
      yield* addTags(created.id, link.tags ?? []);
      // Last before the commit: the account row stays locked for as short a time as can be.
      const slot = yield q(TAKE_QUOTA_SLOT, link.workspaceId);
      if (slot.length === 0) return { kind: 'quota-exceeded' };
      yield* linkEvent(events, 'link.created', created);
      return { kind: 'created', link: created };
    }
    // Nothing inserted: a live duplicate or a taken code. The duplicate wins when both apply:
    // a new code would only meet the same duplicate.
    const existing = yield* liveLinkByUrlHash(link.workspaceId, link.domainId, link.urlHash);
    if (existing) return { kind: 'duplicate', existing };
    if ((yield q(CODE_EXISTS, link.domainId, link.code, link.domainId, link.code)).length > 0)
      return { kind: 'code-taken' };
    // Neither: the duplicate that refused the row was deleted in between. Try again.
  }
  throw new Error(`link ${link.code} was refused ${INSERT_ATTEMPTS} times without a visible conflict`);
}

function* deleteLink(
  workspaceId: number,
  domainId: number,
  code: string,
  events: LinkEventSink | undefined,
): Script<boolean> {
  const deleted = mapFirst(yield q(SOFT_DELETE, Date.now(), workspaceId, domainId, code), toLink);
  if (!deleted) return false;
  yield q(FREE_QUOTA_SLOT, workspaceId);
  yield* linkEvent(events, 'link.deleted', deleted);
  return true;
}

function* firstLink(sql: string, ...params: Param[]): Script<Link | undefined> {
  return mapFirst(yield q(sql, ...params), toLink);
}

/** The page out of the listing's rows and its count's. */
function pageFrom(sql: ListingSql, query: LinkQuery, rows: Row[], counted: Row[] | undefined): LinkPage {
  const total = counted === undefined ? undefined : Number(counted[0]?.n ?? 0);
  return { ...pageOf(rows.map(toLink), query.limit, sql.reversed), total };
}

/**
 * A page of an account's links, with its total (on SQLite a reader thread runs it: readers.ts);
 * `index` is the dialect's index of text for the search box (link-list.ts).
 */
export function* listLinks(workspaceId: number, query: LinkQuery, index?: TextIndex): Script<LinkPage> {
  const sql = linkListing(workspaceId, query, () => '?', yield* textIndexFor(query.find, index, workspaceId));
  const rows = yield q(sql.select, ...sql.selectParams);
  const counted = sql.count === undefined ? undefined : yield q(sql.count, ...sql.countParams);
  return pageFrom(sql, query, rows, counted);
}

/** Where a dialect runs the writes of links that requests wait on. */
export interface LinkWrites {
  /** A create, in a transaction of its own that commits only when `keep(result)` holds. */
  create<T>(script: Script<T>, keep: (result: T) => boolean): Promise<T>;
  /** A visit taken, on the redirect's path: one statement, committed on its own. */
  visit<T>(script: Script<T>): Promise<T>;
}

/**
 * `readers` answers the listings and the counts per group when given (SQLite's reader threads:
 * they grow with the account's links); otherwise `runner` reads them. The bulk insert stays per
 * dialect (bulk-links.ts), as does SQLite's synchronous look-up by code.
 */
export function linkStore(
  runner: ScriptRunner,
  writes: LinkWrites,
  readers?: Pick<LinkStore, 'listLinks' | 'countLinksPerGroup'>,
): Omit<LinkStore, 'insertLinksBulk' | 'findLinkByCodeNow'> {
  return {
    findLiveLinkByUrlHash: (workspaceId, domainId, urlHash) =>
      runner.read(liveLinkByUrlHash(workspaceId, domainId, urlHash)),

    async countLiveLinks(workspaceId) {
      // The counter the quota is enforced on, kept in every insert's and delete's transaction:
      // constant time, where counting rows took 0.4 s for an account of 1M links.
      const [row] = await runner.read(
        rowsOf('SELECT link_count AS n FROM workspaces WHERE id = ?', workspaceId),
      );
      return Number(row?.n ?? 0);
    },

    // Creates made at once share a commit on SQLite, each in its savepoint; a refused one rolls back itself.
    insertLinkWithinQuota: (link, events) =>
      writes.create(createLink(link, events), (result) => result.kind === 'created'),

    async isCodeIssued(domainId, code) {
      return (await runner.read(rowsOf(CODE_EXISTS, domainId, code, domainId, code))).length > 0;
    },

    findLinkByCode: (domainId, code) => runner.read(firstLink(FIND_LINK_BY_CODE, domainId, code)),

    findLinkOfWorkspace: (workspaceId, domainId, code) =>
      runner.read(firstLink(FIND_LINK_OF_WORKSPACE, domainId, code, workspaceId)),

    deleteLink: (workspaceId, domainId, code, events) =>
      runner.write(deleteLink(workspaceId, domainId, code, events)),

    async takeVisit(linkId) {
      return (await writes.visit(rowsOf(TAKE_VISIT, linkId))).length === 1;
    },

    async visitsTaken(linkId) {
      const [row] = await runner.read(rowsOf('SELECT limit_used FROM links WHERE id = ?', linkId));
      return Number(row?.limit_used ?? 0);
    },

    async listLinks(workspaceId, query) {
      if (readers) return readers.listLinks(workspaceId, query);
      // Without reader threads (PostgreSQL's pool), the page and its count are read at once.
      const index = await runner.read(textIndexFor(query.find, 'pg_trgm', workspaceId));
      const sql = linkListing(workspaceId, query, () => '?', index);
      const [rows, counted] = await Promise.all([
        runner.read(rowsOf(sql.select, ...sql.selectParams)),
        sql.count === undefined ? undefined : runner.read(rowsOf(sql.count, ...sql.countParams)),
      ]);
      return pageFrom(sql, query, rows, counted);
    },

    ...linkChangeStore(runner, readers),
    ...aliasStore(runner),
  };
}
