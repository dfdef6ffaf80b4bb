import { BAD, type Fields, type Invalid, queryText } from './shlink-input.ts';

/**
 * Shlink's page-numbered lists: `page` from 1 and `itemsPerPage` (-1: every item), answered with
 * a Pagination object. Snip caps a page (docs/migrating/shlink.md): a bigger one, or "every item",
 * answers that many, and the pagination says so, so a client pages on through the rest.
 */

export interface PageAsk {
  page: number;
  /** Items on a page, at most the list's cap. */
  size: number;
  /** -1 was asked for: Shlink then reports the total as the page size. */
  all: boolean;
}

export interface Pagination {
  currentPage: number;
  pagesCount: number;
  itemsPerPage: number;
  itemsInCurrentPage: number;
  totalItems: number;
}

/** Where a page starts in the list. */
export const offsetOf = (ask: PageAsk) => (ask.page - 1) * ask.size;

/**
 * The short URL list's paging, checked as Shlink's mapper checks it: `page` a whole number from 1,
 * `itemsPerPage` -1 or a whole number from 1 (default 10); anything else is invalid.
 */
export function strictPage(query: Fields, invalid: Invalid, cap: number): PageAsk {
  const page = invalid.take('page', wholeFrom(queryText(query, 'page'), 1));
  const perPage = invalid.take('itemsPerPage', wholeFrom(queryText(query, 'itemsPerPage'), -1));
  const all = perPage === -1;
  return { page: page ?? 1, size: all ? cap : Math.min(perPage ?? 10, cap), all };
}

function wholeFrom(text: string | undefined | typeof BAD, least: 1 | -1): number | undefined | typeof BAD {
  if (text === undefined || text === BAD) return text;
  const trimmed = text.trim();
  if (!/^-?\d{1,15}$/.test(trimmed)) return BAD;
  const number = Number(trimmed);
  return number >= 1 || (least === -1 && number === -1) ? number : BAD;
}

/** PHP's `(int) "12abc"`: the leading whole number, 0 when there is none. */
function phpInteger(text: string): number {
  const match = /^\s*[+-]?\d+/.exec(text);
  return match ? Math.max(-1e15, Math.min(1e15, Number(match[0]))) : 0;
}

/**
 * The paging of visits and tags, read as Shlink reads it there: `page` below 1 or not a number is
 * page 1; `itemsPerPage` absent or negative is every item. An `itemsPerPage` of 0 (or not a number)
 * would make Shlink fail: here it is invalid data.
 */
export function lenientPage(query: Fields, invalid: Invalid, cap: number): PageAsk {
  const pageText = invalid.take('page', queryText(query, 'page'));
  const sizeText = invalid.take('itemsPerPage', queryText(query, 'itemsPerPage'));
  const page = pageText === undefined ? 1 : Math.max(1, phpInteger(pageText));
  const size = sizeText === undefined ? -1 : phpInteger(sizeText);
  if (size === 0) invalid.note('itemsPerPage');
  const all = size < 0;
  return { page, size: all ? cap : Math.min(Math.max(size, 1), cap), all };
}

export function pagination(ask: PageAsk, totalItems: number, itemsInCurrentPage: number): Pagination {
  const itemsPerPage = ask.all && totalItems <= ask.size ? totalItems : ask.size;
  return {
    currentPage: ask.page,
    pagesCount: itemsPerPage > 0 ? Math.max(1, Math.ceil(totalItems / itemsPerPage)) : 1,
    itemsPerPage,
    itemsInCurrentPage,
    totalItems,
  };
}

/** One page of a list held whole in memory (tags). */
export function pageOf<T>(items: readonly T[], ask: PageAsk): { data: T[]; pagination: Pagination } {
  const data = items.slice(offsetOf(ask), offsetOf(ask) + ask.size);
  return { data, pagination: pagination(ask, items.length, data.length) };
}
