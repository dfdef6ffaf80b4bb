import type { Link } from './entities.ts';

/** How the links of a workspace are asked for a page at a time (the store's listLinks). */

/**
 * The orders links are listed in, ties by id: created, clicks, last click (a link never clicked
 * counts as clicked at 0, so it comes last highest first and first lowest first) and title; the
 * compatibility APIs (docs/api.md §15) also order by target or code, read by offset.
 */
export type LinkOrder = 'created' | 'clicks' | 'last_click' | 'title' | 'long_url' | 'code';

/** Where a page of links starts or ends in its order: the link's value of the order, and its id. */
export interface LinkPosition {
  /** Creation time or last click (epoch ms, 0 for never), clicks, or the title, as the order says. */
  value: number | string;
  id: number;
}

/**
 * Which links by their state (docs/api.md §18): active (neither archived, expired nor disabled),
 * archived, expired (past expiry or out of clicks), disabled by an operator, broken (its targets
 * failed two checks in a row, §21), all; `listed` is every link but the archived, the lists' default.
 */
export type LinkState = 'active' | 'archived' | 'expired' | 'disabled' | 'broken' | 'all' | 'listed';

/** A search as typed in a list's box: a code prefix, or text in the title, target or tags. */
export interface LinkFind {
  /** Matched as a code's prefix and within the title, the long URL and the tags, case-insensitive. */
  text: string;
  /** A short URL pasted whole: only that link (by its domain and code). */
  address?: { domainId: number; code: string };
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
  /** The lists' search box (docs/api.md §18). */
  find?: LinkFind;
  /** Only links in this state at `now`; every link when absent. */
  state?: { is: LinkState; now: number };
  /** Only links past their expiry at `now` (true), or only the others (false). */
  expired?: { is: boolean; now: number };
  /** Default `created`. */
  order?: LinkOrder;
  /** Lowest first instead of highest; positions follow the direction. */
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

/** A link's place in an order. */
export function positionOf(link: Link, order: LinkOrder): LinkPosition {
  const value =
    order === 'clicks'
      ? link.clicks
      : order === 'last_click'
        ? (link.lastClickedAt?.getTime() ?? 0)
        : order === 'title'
          ? link.title
          : link.createdAt.getTime();
  return { value, id: link.id };
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const CODE_PATH = /^\/([A-Za-z0-9_-]{1,64})\/?$/;

/**
 * What a search box holds: a short URL pasted whole (any scheme, a trailing slash) on a domain
 * `domainOf` knows (its host with the port, else without; undefined for one it does not) finds
 * that link only; anything else is text.
 */
export function linkFind(
  text: string | undefined,
  domainOf: (host: string) => number | undefined,
): LinkFind | undefined {
  const typed = text?.trim() ?? '';
  if (typed === '') return undefined;
  if (!SCHEME.test(typed) || /\s/.test(typed)) return { text: typed };
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    return { text: typed };
  }
  const code = CODE_PATH.exec(url.pathname)?.[1];
  if (!code || url.host === '') return { text: typed };
  const domainId = domainOf(url.host) ?? (url.port === '' ? undefined : domainOf(url.hostname));
  return domainId === undefined ? { text: typed } : { text: typed, address: { domainId, code } };
}
