import type { LinkResource } from '../../links/index.ts';
import { atomDate } from './shlink-input.ts';

/**
 * A Snip link as Shlink's ShortUrl (docs/migrating/shlink.md): the code is the shortCode, the
 * domain is null on the workspace's default domain, visitsSummary counts human clicks as nonBots
 * and bot hits as bots. Snip has no validSince and keeps links out of search engines, so those
 * fields are fixed.
 */

export interface ShlinkVisitsSummary {
  total: number;
  nonBots: number;
  bots: number;
}

export interface ShlinkShortUrl {
  shortCode: string;
  shortUrl: string;
  longUrl: string;
  dateCreated: string;
  visitsSummary: ShlinkVisitsSummary;
  tags: string[];
  meta: { validSince: null; validUntil: string | null; maxVisits: number | null };
  domain: string | null;
  title: string | null;
  crawlable: boolean;
  forwardQuery: boolean;
  hasRedirectRules: boolean;
}

export const summaryOf = (clicks: number, botHits: number): ShlinkVisitsSummary => ({
  total: clicks + botHits,
  nonBots: clicks,
  bots: botHits,
});

/** `defaultHost`: the workspace's default domain, which Shlink shows as null. */
export function shortUrlOf(link: LinkResource, defaultHost: string): ShlinkShortUrl {
  return {
    shortCode: link.short_code,
    shortUrl: link.short_url,
    longUrl: link.long_url,
    dateCreated: atomDate(link.created_at),
    visitsSummary: summaryOf(link.clicks, link.bot_hits),
    tags: [...link.tags],
    meta: {
      validSince: null,
      validUntil: link.expires_at === null ? null : atomDate(link.expires_at),
      maxVisits: link.max_clicks,
    },
    domain: link.domain === defaultHost ? null : link.domain,
    title: link.title === '' ? null : link.title,
    crawlable: false,
    forwardQuery: link.forward_query,
    hasRedirectRules: link.rules.length > 0,
  };
}
