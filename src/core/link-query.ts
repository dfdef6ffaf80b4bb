import type { Link } from './entities.ts';

/** How the links of a workspace are asked for a page at a time (the store's listLinks). */

/**
 * The orders links are listed in: newest first, or most clicked first, ties by the newest id; the
 * compatibility APIs (docs/api.md §15) also order by title, target or code, either way, read by offset.
 */
export type LinkOrder = 'created' | 'clicks' | 'title' | 'long_url' | 'code';

/** Where a page of links starts or ends in its order: the link's value of the order, and its id. */
export interface LinkPosition {
  /** Creation time (epoch ms) or clicks, as the order says. */
  value: number;
  id: number;
}

export interface LinkQuery {
  /** Only links on this domain. */
  domainId?: number;
  /** Only links of this group. */
  groupId?: number;
  /** Case-insensitive substring of the long URL or the title. */
  search?: string;
  /** Only links with this tag. */
  tag?: string;
  /** Only links with any of these tags (all of them with `all`). */
  tags?: { values: readonly string[]; all: boolean };
  /** Only links created within these epoch ms, both ends inclusive, either open. */
  created?: { from?: number; to?: number };
  /** Only links that have not yet taken their max_clicks. */
  belowMaxClicks?: boolean;
  /** `search` also matches the code and the tags. */
  searchCodesAndTags?: boolean;
  /** Only links past their expiry at `now` (true), or only the others (false). */
  expired?: { is: boolean; now: number };
  /** Default `created`. */
  order?: LinkOrder;
  /** Lowest first instead of highest (keyset positions are for the default direction only). */
  ascending?: boolean;
  /** Skips this many links of the order (the page-numbered lists of the compatibility APIs). */
  offset?: number;
  /** false: leave the total out (an API page or an export needs none). Default true. */
  counted?: boolean;
  limit: number;
  /** The page after this position (further down the order). */
  after?: LinkPosition;
  /** The page before this position (back up the order); `after` wins when both are given. */
  before?: LinkPosition;
}

export interface LinkPage {
  /** In the order asked for. */
  links: Link[];
  /** Live links matching the query, over all pages; undefined when the query asked for no count. */
  total: number | undefined;
  /** More links lie beyond this page, in the direction it was read (down, or up with `before`). */
  more: boolean;
}
