import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { isLinkCode, SLUG_MAX_LENGTH, SLUG_MIN_LENGTH } from '../../core/short-code.ts';
import { type ClickKind, clickKind, type VisitRecorder, type VisitRequest } from '../analytics/index.ts';
import type { CachedLink, LinkCache } from './link-cache.ts';

// Every click must reach us: no browser or proxy may keep the redirect.
export const NO_STORE = 'private, no-cache, no-store, max-age=0, must-revalidate';

export interface RedirectAnswerOptions {
  /** Counts the redirect as TRACKING and the request say (analytics' visit recorder). */
  record: VisitRecorder;
  onRedirect?: (kind: ClickKind) => void;
}

/** Whichever speculation header came (browsers send at most one); usually none. */
export function purposeOf(headers: IncomingHttpHeaders): string {
  return String(headers['sec-purpose'] ?? headers.purpose ?? headers['x-purpose'] ?? headers['x-moz'] ?? '');
}

/** Counts the request of a redirect: a click or a bot hit, and with it what analytics keep. */
export function redirectAnswer(options: RedirectAnswerOptions) {
  return (link: CachedLink, method: string, req: VisitRequest): void => {
    const facts = { method, userAgent: req.headers['user-agent'], purpose: purposeOf(req.headers) };
    const kind = clickKind(facts);
    options.record(link.id, link.accountId, kind, facts, req);
    options.onRedirect?.(kind);
  };
}

export type RedirectAnswer = ReturnType<typeof redirectAnswer>;

/**
 * The hot path below the router: a GET or HEAD of /<code> whose link is in the hot-link cache (or,
 * on an embedded store, found at once) is answered on the socket, with the same status, headers and
 * counting as the route. Anything else (an unknown code, any other path) returns false and goes on
 * to the application.
 */
export function fastRedirect(
  cache: LinkCache,
  answer: RedirectAnswer,
  status: number,
  /** What every answer carries besides (security headers), as name/value pairs. */
  common: readonly string[],
  /** The target of a link with a guard, when it can be told here; undefined leaves it to the route. */
  guardedTarget: (link: CachedLink, req: IncomingMessage) => string | undefined = () => undefined,
  /** An embedded store's look-up at once (SQLite): a cold code is answered here too. */
  lookupNow?: (code: string) => CachedLink | undefined,
) {
  /** The link of a code not cached, or undefined to leave it to the route (unknown, or the store failed). */
  const coldLink = (code: string): CachedLink | undefined => {
    if (!lookupNow) return undefined;
    let link: CachedLink | undefined;
    try {
      link = lookupNow(code);
    } catch {
      // The route asks again and answers the failure as it does (a stale link, or 503).
      return undefined;
    }
    cache.settle(code, link);
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
    const cached = cache.peek(code);
    const link = cached === undefined ? coldLink(code) : cached;
    if (!link) return false;
    // A link with rules: targeting and a future expiry are answered here, the rest by the route.
    const location = link.guard ? guardedTarget(link, req) : link.location;
    if (location === undefined) return false;
    answer(link, method, req);
    // The flat array form skips building and walking a headers object.
    res.writeHead(status, ['location', location, ...tail]);
    res.end();
    return true;
  };
}
