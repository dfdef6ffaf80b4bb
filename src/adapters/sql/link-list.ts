import type { LinkQuery } from '../../core/link-query.ts';
import { containsPattern, LINK_COLUMNS } from './rows.ts';

/**
 * The SQL of an account's link listing, the same for both dialects but for their placeholders:
 * live links only (so the partial indexes links_account / links_account_clicks serve the order),
 * filtered, ordered with the id as tie-break, and read by keyset from a position — a page costs the
 * same at the 100,000th link as at the first. One more row than asked tells whether more follow.
 */
export interface ListingSql {
  select: string;
  selectParams: Array<number | string>;
  /** Absent when the query asked for no total. */
  count: string | undefined;
  countParams: Array<number | string>;
  /** Rows come in the opposite order (a page before a position) and are to be reversed. */
  reversed: boolean;
}

const ORDER_COLUMN = {
  created: 'created_at',
  clicks: 'clicks',
  title: 'title',
  long_url: 'long_url',
  code: 'code',
} as const;

/** At most this many tags filter one listing (each is a placeholder of its own). */
export const MAX_FILTER_TAGS = 20;

type Param = (value: number | string) => string;

/** The filters of the query beyond the account and liveness, as SQL conditions. */
function filters(query: LinkQuery, param: Param): string[] {
  const conditions: string[] = [];
  if (query.domainId !== undefined) conditions.push(`domain_id = ${param(query.domainId)}`);
  if (query.groupId !== undefined) conditions.push(`group_id = ${param(query.groupId)}`);
  const tagged = (tags: readonly string[]) =>
    `EXISTS (SELECT 1 FROM link_tags t WHERE t.link_id = links.id AND t.tag IN (${tags.map(param).join(', ')}))`;
  if (query.tag !== undefined) conditions.push(tagged([query.tag]));
  const tags = [...new Set(query.tags?.values ?? [])].slice(0, MAX_FILTER_TAGS);
  if (tags.length > 0 && query.tags?.all) conditions.push(...tags.map((tag) => tagged([tag])));
  else if (tags.length > 0) conditions.push(tagged(tags));
  if (query.expired !== undefined) {
    const now = param(query.expired.now);
    conditions.push(
      query.expired.is
        ? `(expires_at IS NOT NULL AND expires_at <= ${now})`
        : `(expires_at IS NULL OR expires_at > ${now})`,
    );
  }
  if (query.created?.from !== undefined) conditions.push(`created_at >= ${param(query.created.from)}`);
  if (query.created?.to !== undefined) conditions.push(`created_at <= ${param(query.created.to)}`);
  if (query.belowMaxClicks) conditions.push('(max_clicks IS NULL OR clicks < max_clicks)');
  const search = query.search?.trim();
  if (search) {
    const pattern = containsPattern(search);
    const matches = [
      `lower(long_url) LIKE ${param(pattern)} ESCAPE '\\'`,
      `lower(title) LIKE ${param(pattern)} ESCAPE '\\'`,
    ];
    if (query.searchCodesAndTags) {
      matches.push(
        `lower(code) LIKE ${param(pattern)} ESCAPE '\\'`,
        `EXISTS (SELECT 1 FROM link_tags t WHERE t.link_id = links.id AND lower(t.tag) LIKE ${param(pattern)} ESCAPE '\\')`,
      );
    }
    conditions.push(`(${matches.join(' OR ')})`);
  }
  return conditions;
}

export function linkListing(
  workspaceId: number,
  query: LinkQuery,
  placeholder: (n: number) => string,
): ListingSql {
  const params: Array<number | string> = [];
  const param = (value: number | string) => {
    params.push(value);
    return placeholder(params.length);
  };
  const conditions = [`workspace_id = ${param(workspaceId)}`, 'deleted_at IS NULL', ...filters(query, param)];
  // Unfiltered, the total is the account's counter of live links (kept by every insert and delete):
  // constant time where counting takes milliseconds per 100,000 links.
  const filtered = conditions.length > 2;
  const countParams = filtered ? [...params] : [workspaceId];
  const count =
    query.counted === false
      ? undefined
      : filtered
        ? `SELECT COUNT(*) AS n FROM links WHERE ${conditions.join(' AND ')}`
        : `SELECT link_count AS n FROM workspaces WHERE id = ${placeholder(1)}`;
  const column = ORDER_COLUMN[query.order ?? 'created'];
  const reversed = query.after === undefined && query.before !== undefined;
  const position = query.after ?? query.before;
  if (position) {
    const comparison = reversed ? '>' : '<';
    conditions.push(`(${column}, id) ${comparison} (${param(position.value)}, ${param(position.id)})`);
  }
  const direction = reversed !== Boolean(query.ascending) ? 'ASC' : 'DESC';
  const limit = `LIMIT ${param(query.limit + 1)}`;
  const offset = query.offset ? ` OFFSET ${param(Math.max(0, Math.floor(query.offset)))}` : '';
  const select =
    `SELECT ${LINK_COLUMNS} FROM links WHERE ${conditions.join(' AND ')} ` +
    `ORDER BY ${column} ${direction}, id ${direction} ${limit}${offset}`;
  return { select, selectParams: params, count, countParams, reversed };
}

/** The page out of the rows read (one more than the limit, maybe reversed): the links in order, and whether more follow. */
export function pageOf<T>(rows: T[], limit: number, reversed: boolean): { links: T[]; more: boolean } {
  const links = rows.slice(0, limit);
  if (reversed) links.reverse();
  return { links, more: rows.length > limit };
}
