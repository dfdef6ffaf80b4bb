import type { Link } from '../../core/entities.ts';
import { DOMAINS_CHANGED, linkKey, TRACKING_CHANGED } from '../../core/link-key.ts';
import type { CountryLookup } from '../../core/ports/geo.ts';
import type { LinkEvents } from '../../core/ports/shared-state.ts';
import type { LinkStore } from '../../core/ports/store.ts';
import { everyAnswerHeaders, pageAnswerHeaders } from '../../http/security-headers.ts';
import type { DailyVisitor, VisitRecorder } from '../analytics/index.ts';
import {
  type DomainOfHost,
  fastRedirect,
  type LinkScreen,
  type RedirectAnswerOptions,
  redirectAnswer,
} from './fast-path.ts';
import { fastTargeting } from './fast-targeting.ts';
import { type CachedLink, cachedLink, type LinkCache, linkCacheOver } from './link-cache.ts';
import { hostMiss } from './miss-pages.ts';

/**
 * The redirect's own state, built once per process: hot links in memory (every change heard from
 * any instance), the answer that records each visit, and the hot path answered below the router.
 */
export interface RedirectPathOptions {
  /** The store as requests use it (deadlines, metrics). */
  store: Pick<LinkStore, 'findLinkByCode' | 'findLinkByAlias'>;
  /** The store itself: when embedded (SQLite), its look-up at once answers cold codes below the router. */
  embedded: Pick<LinkStore, 'findLinkByCodeNow' | 'findLinkByAliasNow'>;
  linkEvents: LinkEvents;
  /** The domain a request's Host reaches (features/domains). */
  domainOf: DomainOfHost;
  /** Suspensions and blocklists (features/abuse). */
  screen: LinkScreen;
  cache: { max: number; ttlMs: number };
  record: VisitRecorder;
  onRedirect?: RedirectAnswerOptions['onRedirect'];
  issue?: RedirectAnswerOptions['issue'];
  redirectStatus: number;
  https: boolean;
  countries: CountryLookup;
  /** TRUST_PROXY is off: the socket's peer is the client. */
  socketIsClient: boolean;
  now: () => number;
  /** Today's visitor, whom an A/B test splits by (features/analytics); none: tests go to the route. */
  visitor?: Pick<DailyVisitor, 'now'>;
}

/**
 * The redirect's look-up at once, when the store is embedded (docs/adr/021-cold-codes-below-the-router.md):
 * the link of the code, else the link a rename left the code to as an alias (only then, so links
 * without aliases cost nothing more), noted in the cache so the link's changes drop it too.
 */
function lookupNow(
  store: Pick<LinkStore, 'findLinkByCodeNow' | 'findLinkByAliasNow'>,
  cache: LinkCache,
): ((domainId: number, code: string) => CachedLink | undefined) | undefined {
  const find = store.findLinkByCodeNow?.bind(store);
  const findAlias = store.findLinkByAliasNow?.bind(store);
  if (!find || !findAlias) return undefined;
  return (domainId, code) => {
    const link = find(domainId, code);
    if (link) return cachedLink(link);
    const renamed = findAlias(domainId, code);
    if (!renamed) return undefined;
    cache.noteAlias(linkKey(domainId, code), linkKey(renamed.domainId, renamed.code));
    return cachedLink(renamed);
  };
}

export function redirectPath(options: RedirectPathOptions) {
  const cache = linkCacheOver(
    (domainId, code) => options.store.findLinkByCode(domainId, code),
    options.cache,
    (domainId, code) => options.store.findLinkByAlias(domainId, code),
  );
  // The domains feature hears DOMAINS_CHANGED itself.
  options.linkEvents.onChanged((key) => {
    // A workspace's default for conversion tracking reaches its links through their cached state.
    if (key === TRACKING_CHANGED) cache.clear();
    else if (key !== DOMAINS_CHANGED) cache.invalidate(key);
  });
  options.linkEvents.onMissed(() => cache.clear());
  const answer = redirectAnswer({
    record: options.record,
    onRedirect: options.onRedirect,
    issue: options.issue,
  });
  const fast = fastRedirect(
    options.domainOf,
    cache,
    answer,
    options.redirectStatus,
    everyAnswerHeaders(options.https),
    fastTargeting({
      now: options.now,
      countries: options.countries,
      socketIsClient: options.socketIsClient,
      visitor: options.visitor && ((req) => options.visitor?.now(req)),
    }),
    lookupNow(options.embedded, cache),
    hostMiss(pageAnswerHeaders(options.https), everyAnswerHeaders(options.https)),
    options.screen,
  );
  /** A new link is remembered at once: the code may have been asked for (and cached as unknown). */
  const remember = (link: Link) => cache.remember(linkKey(link.domainId, link.code), cachedLink(link));
  return { cache, answer, fast, remember };
}
