import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { withClickId } from '../../core/conversions.ts';
import { previewerOf } from '../../core/link-previewers.ts';
import { isLinkCode, SLUG_MAX_LENGTH, SLUG_MIN_LENGTH } from '../../core/short-code.ts';
import { type ClickKind, clickKind } from '../../http/click-kind.ts';
import type { VisitRecorder, VisitRequest } from '../analytics/index.ts';
import type { GuardedTarget } from './fast-targeting.ts';
import type { CachedLink, LinkCache } from './link-cache.ts';
import { extrasTarget } from './link-extras.ts';

/** The domain a request's Host reaches (features/domains): its id and the prefix of its links' keys. */
export interface HostDomain {
  id: number;
  keyPrefix: string;
}

/**
 * What takes a link down besides its own state (features/abuse): its workspace suspended, a target
 * host on a blocklist. The route answers such a link 410.
 */
export interface LinkScreen {
  /** Some rule or suspension is in force at all: false costs the hot path one property read. */
  readonly active: boolean;
  /** May remember its answer on the link (its `screenedUnder` and `blocked`). */
  withholds(link: CachedLink): boolean;
}

/** Nothing screened: no rules, no suspensions. */
export const NO_SCREEN: LinkScreen = { active: false, withholds: () => false };

/** The domain of a Host header, undefined for a host Snip serves no links on. */
export type DomainOfHost = (host: string | undefined) => HostDomain | undefined;

// Every click must reach us: no browser or proxy may keep the redirect.
export const NO_STORE = 'private, no-cache, no-store, max-age=0, must-revalidate';

export interface RedirectAnswerOptions {
  /** Counts the redirect as TRACKING and the request say (analytics' visit recorder). */
  record: VisitRecorder;
  onRedirect?: (kind: ClickKind) => void;
  /** A click id for a human click of a tracked link (features/conversions), or none for this click. */
  issue?: (linkId: number, workspaceId: number, req: VisitRequest, variant?: number) => string | undefined;
}

/** Whichever speculation header came (browsers send at most one); usually none. */
export function purposeOf(headers: IncomingHttpHeaders): string {
  return String(headers['sec-purpose'] ?? headers.purpose ?? headers['x-purpose'] ?? headers['x-moz'] ?? '');
}

/**
 * Counts one request of a link; `variant`: the A/B test's variant it was sent to (1-4), 0 or absent:
 * none. Answers the click id it was handed, if any (docs/api.md §20).
 */
export type CountVisit = (
  link: CachedLink,
  method: string,
  req: VisitRequest,
  variant?: number,
) => string | undefined;

/** Counts the request of a redirect (a click or a bot hit); `asBot` a request that is a bot's whatever it says. */
export interface RedirectAnswer extends CountVisit {
  /** A link previewer given a link's card (docs/api.md §16): a bot hit, never a click. */
  asBot: CountVisit;
}

/** Counts the request of a redirect: a click or a bot hit, and with it what analytics keep. */
export function redirectAnswer(options: RedirectAnswerOptions): RedirectAnswer {
  const answer: CountVisit = (link, method, req, variant) => {
    const facts = { method, userAgent: req.headers['user-agent'], purpose: purposeOf(req.headers) };
    const kind = clickKind(facts);
    options.record(link.id, link.workspaceId, kind, facts, req, undefined, variant);
    options.onRedirect?.(kind);
    // A tracked link's human click: an untracked link pays the one read of `extras` it paid before.
    if (kind === 'human' && link.extras !== undefined && link.extras.track) {
      return options.issue?.(link.id, link.workspaceId, req, variant);
    }
    return undefined;
  };
  // Apart from the redirect's own answer, which stays as lean as it was.
  const asBot: CountVisit = (link, method, req) => {
    const facts = { method, userAgent: req.headers['user-agent'], purpose: purposeOf(req.headers) };
    options.record(link.id, link.workspaceId, 'bot', facts, req, previewerOf(facts.userAgent));
    options.onRedirect?.('bot');
    return undefined;
  };
  return Object.assign(answer, { asBot });
}

/**
 * The hot path below the router: a GET or HEAD of /<code> whose link, on the domain the Host header
 * names, is in the hot-link cache (or, on an embedded store, found at once) is answered on the
 * socket, with the same status, headers and counting as the route. Anything else (an unknown code
 * or host, any other path) returns false and goes on to the application.
 */
export function fastRedirect(
  domainOf: DomainOfHost,
  cache: LinkCache,
  answer: CountVisit,
  status: number,
  /** What every answer carries besides (security headers), as name/value pairs. */
  common: readonly string[],
  /** The target of a link with a guard, when it can be told here; undefined leaves it to the route. */
  guardedTarget: GuardedTarget = () => undefined,
  /** An embedded store's look-up at once (SQLite): a cold code is answered here too. */
  lookupNow?: (domainId: number, code: string) => CachedLink | undefined,
  /** The 404 of a code on a host no links are served on; undefined leaves it to the route. */
  hostMiss?: (req: IncomingMessage, res: ServerResponse) => void,
  /** Suspensions and blocklists: a link they withhold is left to the route, which answers 410. */
  screen: LinkScreen = NO_SCREEN,
) {
  /** The link of a code not cached, or undefined to leave it to the route (unknown, or the store failed). */
  const coldLink = (domain: HostDomain, code: string, key: string): CachedLink | undefined => {
    if (!lookupNow) return undefined;
    let link: CachedLink | undefined;
    try {
      link = lookupNow(domain.id, code);
    } catch {
      // The route asks again and answers the failure as it does (a stale link, or 503).
      return undefined;
    }
    // The look-up answers a renamed link's alias too, so a code it does not know is unknown.
    cache.settle(key, link);
    return link;
  };
  const tail = ['cache-control', NO_STORE, 'content-length', '0', ...common];
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const { method, url } = req;
    if ((method !== 'GET' && method !== 'HEAD') || url === undefined) return false;
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    // "/" and a code: anything longer or shorter is some other route, left to the router.
    if (path.length <= SLUG_MIN_LENGTH || path.length > SLUG_MAX_LENGTH + 1) return false;
    const code = path.slice(1);
    if (!isLinkCode(code)) return false;
    // A host no links are served on: 404, with no link looked up and nothing counted.
    const domain = domainOf(req.headers.host);
    if (domain === undefined) {
      if (!hostMiss) return false;
      hostMiss(req, res);
      return true;
    }
    const key = domain.keyPrefix === '' ? code : domain.keyPrefix + code;
    const cached = cache.peek(key);
    const link = cached === undefined ? coldLink(domain, code, key) : cached;
    if (!link) return false;
    // A link with rules: targeting and a future expiry are answered here, the rest by the route.
    let location = link.guard ? guardedTarget(link, req) : link.location;
    if (location === undefined) return false;
    if (screen.active && screen.withholds(link)) return false;
    // Forwarding and previews: a link without either pays this one read (docs/api.md §16).
    if (link.extras !== undefined) {
      location = extrasTarget(link.extras, location, req);
      if (location === undefined) return false;
    }
    // A link with an A/B test: the variant the guard chose goes with the click's record.
    const variant = link.guard === undefined ? 0 : (guardedTarget.chosen?.variant ?? 0);
    const clickId = answer(link, method, req, variant);
    if (clickId !== undefined) location = withClickId(location, clickId);
    // The flat array form skips building and walking a headers object.
    res.writeHead(status, ['location', location, ...tail]);
    res.end();
    return true;
  };
}
