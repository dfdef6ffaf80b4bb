import type { Link } from '../../../core/entities.ts';
import { linkKey } from '../../../core/link-key.ts';
import type { LinkEvents } from '../../../core/ports/shared-state.ts';
import type { LinkStore } from '../../../core/ports/store.ts';
import type { LinkOrigins } from '../../../core/short-url.ts';
import type { VisitStats } from '../visit-stats.ts';

/** How long a rendered page is kept: the stats move with each flush, not with each visitor. */
export const PUBLIC_STATS_TTL_MS = 60_000;
/** Pages kept at once, at most. */
const KEPT_PAGES = 1000;

export interface PublicStatsOptions {
  store: Pick<LinkStore, 'findLinkByCode'>;
  stats: VisitStats;
  origins: LinkOrigins;
  /** A link's change (turned private, archived, deleted, renamed) drops its page at once, on every instance. */
  linkEvents: LinkEvents;
  now: () => number;
}

/** Whether a link shows its stats to anyone: asked for, and live, neither archived nor disabled. */
export function showsPublicStats(link: Link | undefined): link is Link {
  return link?.publicStats === true && !link.archived && link.disabled === null;
}

/**
 * The public stats page of a code on a domain (docs/api.md §19), or undefined when there is none to
 * show (the caller answers the ordinary 404). Pages are rendered at most once a minute per link
 * and instance, so the page of a link shared widely costs the store little.
 */
export function publicStats(options: PublicStatsOptions) {
  const { store, stats, origins, now } = options;
  const kept = new Map<string, { until: number; page: string | undefined }>();
  options.linkEvents.onChanged((key) => kept.delete(key));
  options.linkEvents.onMissed(() => kept.clear());

  return async function pageOf(domainId: number, code: string): Promise<string | undefined> {
    const key = linkKey(domainId, code);
    const found = kept.get(key);
    if (found && found.until > now()) return found.page;
    const link = await store.findLinkByCode(domainId, code);
    let page: string | undefined;
    if (showsPublicStats(link)) {
      const report = await stats.ofPublicLink(link);
      const { publicStatsPage } = await import('./public-stats-page.ts');
      page = publicStatsPage({ host: origins.hostOf(link.domainId), code: link.code, report });
    }
    if (kept.size >= KEPT_PAGES) kept.clear();
    kept.set(key, { until: now() + PUBLIC_STATS_TTL_MS, page });
    return page;
  };
}

export type PublicStats = ReturnType<typeof publicStats>;
