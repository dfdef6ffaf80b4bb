/** The dashboard's reads of one account's links: a page of them, and one by code. */
import type { LinkQuery, LinkStore } from '../ports.ts';
import { containsPattern, LINK_COLUMNS, mapRow, toLink } from '../rows.ts';
import type { Connection } from './connection.ts';

// `deleted_at IS NULL` lets SQLite walk the partial index links_account (account_id, created_at)
// backwards; its rowid breaks ties, so links made in the same millisecond keep a stable order.
const LIVE_OF_ACCOUNT = 'account_id = ? AND deleted_at IS NULL';
const IN_GROUP = ' AND group_id = ?';
const MATCHES = " AND (lower(long_url) LIKE ? ESCAPE '\\' OR lower(title) LIKE ? ESCAPE '\\')";
const NEWEST_FIRST = ' ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?';
export const FIND_LINK_OF_ACCOUNT = `SELECT ${LINK_COLUMNS} FROM links
  WHERE code = ? AND account_id = ? AND deleted_at IS NULL`;

/** The WHERE clause and its parameters for a query; shared by the page and its total. */
function filter(accountId: number, query: LinkQuery): { where: string; params: Array<number | string> } {
  let where = LIVE_OF_ACCOUNT;
  const params: Array<number | string> = [accountId];
  if (query.groupId !== undefined) {
    where += IN_GROUP;
    params.push(query.groupId);
  }
  const search = query.search?.trim();
  if (search) {
    const pattern = containsPattern(search);
    where += MATCHES;
    params.push(pattern, pattern);
  }
  return { where, params };
}

export function sqliteLinkList(conn: Connection): Pick<LinkStore, 'listLinks' | 'findLinkOfAccount'> {
  return {
    async listLinks(accountId, query) {
      const { where, params } = filter(accountId, query);
      const links = conn
        .stmt(`SELECT ${LINK_COLUMNS} FROM links WHERE ${where}${NEWEST_FIRST}`)
        .all(...params, query.limit, query.offset)
        .map(toLink);
      const total = conn.stmt(`SELECT COUNT(*) AS n FROM links WHERE ${where}`).get(...params);
      return { links, total: (total?.n as number | undefined) ?? 0 };
    },

    async findLinkOfAccount(accountId, code) {
      return mapRow(conn.stmt(FIND_LINK_OF_ACCOUNT).get(code, accountId), toLink);
    },
  };
}
