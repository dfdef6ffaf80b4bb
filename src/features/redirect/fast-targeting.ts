import type { IncomingMessage } from 'node:http';
import { hasExpired } from '../../core/link-limits.ts';
import type { CountryLookup } from '../../core/ports/geo.ts';
import { firstMatch } from '../../core/targeting.ts';
import type { CachedLink } from './link-cache.ts';
import { variantFor } from './link-guard.ts';
import { visitorFacts } from './targeting-facts.ts';

export interface FastTargetingOptions {
  now: () => number;
  countries: CountryLookup;
  /** TRUST_PROXY is off: the socket's peer is the client, as the route would see it. */
  socketIsClient: boolean;
  /** Today's keyed hash of the visitor, when at hand (features/analytics); none: tests go to the route. */
  visitor?: (req: IncomingMessage) => Uint8Array | undefined;
}

/** The target of a guarded link, and the A/B test's variant of the last answer (0: none). */
export interface GuardedTarget {
  (link: CachedLink, req: IncomingMessage): string | undefined;
  readonly chosen?: { variant: number };
}

/**
 * The target of a guarded link as the hot path may answer it (docs/api.md §8.2–8.3, §20.x): a link
 * whose only rules are a future expiry, targeting and an A/B test needs no store, no Redis and no
 * form, so it is answered below the router like a plain link. Undefined — past its expiry, behind a
 * password or a visit limit, a country rule behind proxies (the client address is the router's to
 * work out), or a test before today's visitor secret is at hand — leaves the request to the route,
 * which answers it in full. The variant chosen is left in `chosen` for the click's record.
 */
export function fastTargeting(options: FastTargetingOptions): GuardedTarget {
  const chosen = { variant: 0 };
  const target = (link: CachedLink, req: IncomingMessage): string | undefined => {
    chosen.variant = 0;
    const guard = link.guard;
    if (!guard?.synchronous) return undefined;
    if (hasExpired(guard.expiresAtMs, options.now())) return undefined;
    const split = guard.split;
    if (guard.rules.length === 0 && split === null) return link.location;
    if (guard.rules.length > 0) {
      if (guard.namesCountry && !options.socketIsClient) return undefined;
      const visitor = { headers: req.headers, ip: req.socket.remoteAddress ?? '' };
      const rule = firstMatch(guard.rules, visitorFacts(visitor, options.countries));
      if (rule) return rule.location;
    }
    if (split === null) return link.location;
    const hash = options.visitor?.(req);
    if (hash === undefined) return undefined;
    chosen.variant = variantFor(split, hash, link.id);
    return split.locations[chosen.variant - 1];
  };
  return Object.assign(target, { chosen });
}
