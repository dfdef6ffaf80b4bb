import { displayName } from '../../../core/display-names.ts';
import type { StoredVisit, VisitQuery } from '../../../core/ports/tag-store.ts';
import { shortUrl } from '../../../core/short-url.ts';
import type { CompatDeps } from '../compat-deps.ts';
import { atomDate, type Fields, Invalid, queryDate, queryText } from './shlink-input.ts';
import { lenientPage, offsetOf, type Pagination, pagination } from './shlink-pages.ts';
import { rebuiltUserAgent } from './visit-agent.ts';

/**
 * Shlink's visit lists from Snip's raw visits (docs/api.md §9.2): human clicks only, newest first,
 * kept ANALYTICS_RETENTION_DAYS. Snip keeps no address, no user agent and no city of a visitor, so
 * a visit carries the referrer's host, the country, and the browser and OS families.
 */

/** Visits on a page at most (Shlink's default page is every visit). */
export const VISITS_CAP = 5000;

function countryName(code: string): string {
  return displayName('region', code) ?? code;
}

export interface ShlinkVisit {
  referer: string;
  date: string;
  userAgent: string;
  visitLocation: Record<string, string | number | boolean> | null;
  potentialBot: boolean;
  visitedUrl: string | null;
  redirectUrl: null;
}

export function visitOf(visit: StoredVisit, visitedUrl: string | null): ShlinkVisit {
  const located = /^[A-Z]{2}$/.test(visit.country) && visit.country !== 'ZZ';
  return {
    referer: visit.referrer === 'direct' ? '' : visit.referrer,
    date: atomDate(visit.at),
    userAgent: rebuiltUserAgent(visit.os, visit.browser),
    visitLocation: located
      ? {
          countryCode: visit.country,
          countryName: countryName(visit.country),
          regionName: '',
          cityName: '',
          latitude: 0,
          longitude: 0,
          timezone: '',
          isEmpty: false,
        }
      : null,
    // Bot hits are counted per link and day, never kept one by one: every visit listed is a person's.
    potentialBot: false,
    visitedUrl,
    redirectUrl: null,
  };
}

export interface VisitsPage {
  data: ShlinkVisit[];
  pagination: Pagination;
}

/** The paging and dates of a visits request, read as Shlink reads them. */
export function readVisitQuery(raw: Fields) {
  const invalid = new Invalid();
  const ask = lenientPage(raw, invalid, VISITS_CAP);
  const from = invalid.take('startDate', queryDate(raw, 'startDate'));
  const to = invalid.take('endDate', queryDate(raw, 'endDate'));
  // excludeBots needs nothing done: bot hits are never among the visits kept.
  invalid.take('excludeBots', queryText(raw, 'excludeBots'));
  return { invalid, ask, from, to };
}

/** One page of the workspace's visits matching `filter`, each naming the short URL visited. */
export async function visitsPage(
  deps: CompatDeps,
  workspaceId: number,
  read: ReturnType<typeof readVisitQuery>,
  filter: Pick<VisitQuery, 'linkId' | 'tag' | 'domainId'>,
): Promise<VisitsPage> {
  read.invalid.done();
  const { ask, from, to } = read;
  const { visits, total } = await deps.store.listVisits(workspaceId, {
    ...filter,
    from,
    to,
    limit: ask.size,
    offset: offsetOf(ask),
  });
  const data = visits.map((visit) => visitOf(visit, shortUrl(deps.origins, visit)));
  return { data, pagination: pagination(ask, total, data.length) };
}

/** An empty page, as Shlink answers a filter that matches nothing. */
export function noVisits(read: ReturnType<typeof readVisitQuery>): VisitsPage {
  read.invalid.done();
  return { data: [], pagination: pagination(read.ask, 0, 0) };
}
