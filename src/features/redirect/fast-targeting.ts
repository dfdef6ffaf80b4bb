import type { IncomingMessage } from 'node:http';
import { hasExpired } from '../../core/link-limits.ts';
import type { CountryLookup } from '../../core/ports/geo.ts';
import { firstMatch } from '../../core/targeting.ts';
import type { CachedLink } from './link-cache.ts';
import { visitorFacts } from './targeting-facts.ts';

export interface FastTargetingOptions {
  now: () => number;
  countries: CountryLookup;
  /** TRUST_PROXY is off: the socket's peer is the client, as the route would see it. */
  socketIsClient: boolean;
}

/**
 * The target of a guarded link as the hot path may answer it (docs/api.md §8.2–8.3): a link whose
 * only rules are a future expiry and targeting needs no store, no Redis and no form, so it is
 * answered below the router like a plain link. Undefined — past its expiry, behind a password or a
 * visit limit, or a country rule behind proxies (the client address is the router's to work out) —
 * leaves the request to the route, which answers it in full.
 */
export function fastTargeting(options: FastTargetingOptions) {
  return (link: CachedLink, req: IncomingMessage): string | undefined => {
    const guard = link.guard;
    if (!guard?.synchronous) return undefined;
    if (hasExpired(guard.expiresAtMs, options.now())) return undefined;
    if (guard.rules.length === 0) return link.location;
    if (guard.namesCountry && !options.socketIsClient) return undefined;
    const visitor = { headers: req.headers, ip: req.socket.remoteAddress ?? '' };
    return firstMatch(guard.rules, visitorFacts(visitor, options.countries))?.location ?? link.location;
  };
}
