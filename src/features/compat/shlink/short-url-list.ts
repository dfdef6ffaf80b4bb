import type { Link } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import type { LinkOrder, LinkQuery } from '../../../core/link-query.ts';
import { linkResources } from '../../links/index.ts';
import type { CompatDeps } from '../compat-deps.ts';
import {
  BAD,
  type Fields,
  flag,
  Invalid,
  queryDate,
  queryList,
  queryText,
  type Read,
} from './shlink-input.ts';
import { offsetOf, type PageAsk, type Pagination, pagination, strictPage } from './shlink-pages.ts';
import { type ShlinkShortUrl, shortUrlOf } from './short-url-shape.ts';

/**
 * GET /rest/v3/short-urls: Shlink's filters and orders read into the store's link query, one page
 * read by offset. `searchTerm` matches the long URL, title, code and tags; `visits` and
 * `nonBotVisits` both order by human clicks. A page holds at most LIST_CAP short URLs.
 */

export const LIST_CAP = 1000;
/** Links read per store query while a page is filled. */
const CHUNK = 250;

const ORDER_FIELDS: Readonly<Record<string, LinkOrder>> = {
  dateCreated: 'created',
  shortCode: 'code',
  longUrl: 'long_url',
  title: 'title',
  visits: 'clicks',
  nonBotVisits: 'clicks',
};

/** `field-DIR` (or the field alone: ascending, as Shlink's default direction). */
function orderOf(text: Read<string>): Read<{ order: LinkOrder; ascending: boolean }> {
  if (text === BAD) return BAD;
  if (text === undefined || text === '') return undefined;
  const dash = text.lastIndexOf('-');
  const field = dash < 0 ? text : text.slice(0, dash);
  const direction = dash < 0 ? 'ASC' : text.slice(dash + 1);
  const order = Object.hasOwn(ORDER_FIELDS, field) ? ORDER_FIELDS[field] : undefined;
  if (!order || (direction !== 'ASC' && direction !== 'DESC')) return BAD;
  return { order, ascending: direction === 'ASC' };
}

const oneOf = <T extends string>(text: Read<string>, values: readonly T[]): Read<T> =>
  text === undefined || text === BAD
    ? text
    : (values as readonly string[]).includes(text)
      ? (text as T)
      : BAD;

interface ListAsk {
  ask: PageAsk;
  query: Omit<LinkQuery, 'limit'>;
  /** A domain the workspace does not see: Shlink finds nothing on it. */
  none: boolean;
}

/** The filters of the request, every invalid one named at once. */
function readFilters(deps: CompatDeps, workspaceId: number, raw: Fields): ListAsk {
  const invalid = new Invalid();
  const ask = strictPage(raw, invalid, LIST_CAP);
  // In the order of Shlink's own list parameters, so the invalid elements are named as it names them.
  const search = invalid.take('searchTerm', queryText(raw, 'searchTerm'));
  const tags = invalid.take('tags', queryList(raw, 'tags')) ?? [];
  const order = invalid.take('orderBy', orderOf(queryText(raw, 'orderBy')));
  const from = invalid.take('startDate', queryDate(raw, 'startDate'));
  const to = invalid.take('endDate', queryDate(raw, 'endDate'));
  const belowMax = invalid.take('excludeMaxVisitsReached', flag(queryText(raw, 'excludeMaxVisitsReached')));
  const current = invalid.take('excludePastValidUntil', flag(queryText(raw, 'excludePastValidUntil')));
  const mode = invalid.take('tagsMode', oneOf(queryText(raw, 'tagsMode'), ['any', 'all']));
  const domain = invalid.take('domain', queryText(raw, 'domain'));
  // Snip cannot leave tags out of a listing: an exclusion it would ignore is refused instead.
  if ((invalid.take('excludeTags', queryList(raw, 'excludeTags')) ?? []).length > 0)
    invalid.note('excludeTags');
  invalid.take('excludeTagsMode', oneOf(queryText(raw, 'excludeTagsMode'), ['any', 'all']));
  invalid.take('apiKeyName', queryText(raw, 'apiKeyName'));
  invalid.done();
  let domainId: number | undefined;
  let none = false;
  if (domain !== undefined && domain !== '') {
    try {
      domainId = deps.domainOf(workspaceId, domain === 'DEFAULT' ? undefined : domain);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      none = true;
    }
  }
  const query: Omit<LinkQuery, 'limit'> = {
    domainId,
    search: search?.trim() === '' ? undefined : search,
    searchCodesAndTags: true,
    tags: tags.length > 0 ? { values: tags, all: mode === 'all' } : undefined,
    created: from === undefined && to === undefined ? undefined : { from, to },
    belowMaxClicks: belowMax === true ? true : undefined,
    expired: current === true ? { is: false, now: deps.now() } : undefined,
    order: order?.order ?? 'created',
    ascending: order?.ascending ?? false,
  };
  return { ask, query, none };
}

/** The page's links, read a chunk at a time, and how many match in all. */
async function readLinks(deps: CompatDeps, workspaceId: number, { ask, query }: ListAsk) {
  const links: Link[] = [];
  let total = 0;
  while (links.length < ask.size) {
    const limit = Math.min(CHUNK, ask.size - links.length);
    const first = links.length === 0;
    const page = await deps.store.listLinks(workspaceId, {
      ...query,
      offset: offsetOf(ask) + links.length,
      limit,
      counted: first,
    });
    if (first) total = page.total ?? 0;
    links.push(...page.links);
    if (!page.more || page.links.length < limit) break;
  }
  return { links, total };
}

export async function listShortUrls(
  deps: CompatDeps,
  workspaceId: number,
  raw: Fields,
): Promise<{ data: ShlinkShortUrl[]; pagination: Pagination }> {
  const asked = readFilters(deps, workspaceId, raw);
  if (asked.none) return { data: [], pagination: pagination(asked.ask, 0, 0) };
  const { links, total } = await readLinks(deps, workspaceId, asked);
  const defaultHost = deps.domainChoices(workspaceId).chosen;
  const resources = await linkResources(deps.store, deps.origins, workspaceId, links);
  const data = resources.map((link) => shortUrlOf(link, defaultHost));
  return { data, pagination: pagination(asked.ask, total, data.length) };
}
