import type { LinkFind, LinkQuery, LinkState } from '../../core/link-query.ts';
import { type TextIndex, textCandidates, textCondition } from './link-text-search.ts';
import { containsPattern, LINK_COLUMNS } from './rows.ts';

export type { TextIndex };

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

// A link never clicked sorts as clicked at 0; the index links_workspace_last_click (020) holds the same expression.
const ORDER_COLUMN = {
  created: 'created_at',
  clicks: 'clicks',
  last_click: 'COALESCE(last_clicked_at, 0)',
  title: 'title',
  long_url: 'long_url',
  code: 'code',
} as const;

/** At most this many tags filter one listing (each is a placeholder of its own). */
export const MAX_FILTER_TAGS = 20;

type Param = (value: number | string) => string;

/** Past expiry, or out of clicks: the link answers 410. */
const expiredAt = (now: string) =>
  `((expires_at IS NOT NULL AND expires_at <= ${now}) OR (max_clicks IS NOT NULL AND limit_used >= max_clicks))`;

/** The condition of a state, or none for every link. */
function stateCondition(state: LinkState, now: () => string): string | undefined {
  switch (state) {
    case 'all':
      return undefined;
    case 'listed':
      return 'archived = false';
    case 'archived':
      return 'archived = true';
    case 'disabled':
      return 'disabled_at IS NOT NULL';
    case 'expired':
      return expiredAt(now());
    case 'broken':
      // Its targets failed two checks in a row (docs/api.md §21); the partial index links_health_broken serves it.
      return "health_state = 'broken'";
    case 'active':
      return `(archived = false AND disabled_at IS NULL AND NOT ${expiredAt(now())})`;
  }
}

/**
 * The search box: a short URL pasted whole finds its link by the unique (domain, code) index; any
 * other text is a code prefix or a substring of the title, target or a tag (link-text-search.ts).
 */
function findCondition(find: LinkFind, param: Param, index: TextIndex | undefined): string | undefined {
  if (find.address)
    return `(domain_id = ${param(find.address.domainId)} AND code = ${param(find.address.code)})`;
  const text = find.text.trim();
  return text === '' ? undefined : textCondition(text, index, param);
}

/** The filters of the query beyond the account and liveness, as SQL conditions. */
function filters(query: LinkQuery, param: Param, index: TextIndex | undefined): string[] {
  const conditions: string[] = [];
  if (query.domainId !== undefined) conditions.push(`domain_id = ${param(query.domainId)}`);
  if (query.groupId !== undefined) conditions.push(`group_id = ${param(query.groupId)}`);
  // IN, not EXISTS: the planner may start from the tag's index (link_tags_tag) instead of every link.
  const tagged = (tags: readonly string[]) =>
    `links.id IN (SELECT t.link_id FROM link_tags t WHERE t.tag IN (${tags.map(param).join(', ')}))`;
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
  const state = query.state && stateCondition(query.state.is, () => param(query.state?.now ?? 0));
  if (state) conditions.push(state);
  const found = query.find && findCondition(query.find, param, index);
  if (found) conditions.push(found);
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
  index?: TextIndex,
): ListingSql {
  const params: Array<number | string> = [];
  const param = (value: number | string) => {
    params.push(value);
    return placeholder(params.length);
  };
  // A text search starts from its matches: their placeholders come first, as the FROM does.
  const text = query.find && !query.find.address ? query.find.text.trim() : '';
  const from = textCandidates(text, workspaceId, index, param) ?? 'links';
  const conditions = [
    `workspace_id = ${param(workspaceId)}`,
    'deleted_at IS NULL',
    ...filters(query, param, index),
  ];
  // Unfiltered, the total is the account's counter of live links (kept by every insert and delete):
  // constant time where counting takes milliseconds per 100,000 links. The default list (all but
  // the archived) takes the few archived links off it, counted on their own index.
  const filtered = conditions.length > 2;
  const unarchived = conditions.length === 3 && conditions[2] === stateCondition('listed', () => '');
  const countParams = unarchived ? [workspaceId, workspaceId] : filtered ? [...params] : [workspaceId];
  const count =
    query.counted === false
      ? undefined
      : unarchived
        ? `SELECT link_count - (SELECT COUNT(*) FROM links WHERE workspace_id = ${placeholder(1)} AND deleted_at IS NULL AND archived = true) AS n FROM workspaces WHERE id = ${placeholder(2)}`
        : filtered
          ? `SELECT COUNT(*) AS n FROM ${from} WHERE ${conditions.join(' AND ')}`
          : `SELECT link_count AS n FROM workspaces WHERE id = ${placeholder(1)}`;
  const column = ORDER_COLUMN[query.order ?? 'created'];
  const reversed = query.after === undefined && query.before !== undefined;
  const position = query.after ?? query.before;
  // Read lowest first (ascending, or a page back up a descending order): past the position is above it.
  const upwards = reversed !== Boolean(query.ascending);
  if (position) {
    conditions.push(
      `(${column}, id) ${upwards ? '>' : '<'} (${param(position.value)}, ${param(position.id)})`,
    );
  }
  const direction = upwards ? 'ASC' : 'DESC';
  const limit = `LIMIT ${param(query.limit + 1)}`;
  const offset = query.offset ? ` OFFSET ${param(Math.max(0, Math.floor(query.offset)))}` : '';
  const select =
    `SELECT ${LINK_COLUMNS} FROM ${from} WHERE ${conditions.join(' AND ')} ` +
    `ORDER BY ${column} ${direction}, id ${direction} ${limit}${offset}`;
  return { select, selectParams: params, count, countParams, reversed };
}

/** The page out of the rows read (one more than the limit, maybe reversed): the links in order, and whether more follow. */
export function pageOf<T>(rows: T[], limit: number, reversed: boolean): { links: T[]; more: boolean } {
  const links = rows.slice(0, limit);
  if (reversed) links.reverse();
  return { links, more: rows.length > limit };
}
