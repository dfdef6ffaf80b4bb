import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientKey } from '../../core/client-key.ts';
import { UnavailableError } from '../../core/errors.ts';
import type { WindowCounter } from '../../core/ports/shared-state.ts';
import { windowAt } from '../../core/rate-window.ts';
import { isLinkCode } from '../../core/short-code.ts';
import type { LinkOrigins } from '../../core/short-url.ts';
import { errorPage } from '../../web/error-page.ts';
import { type HostDomain, type LinkScreen, NO_STORE, type RedirectAnswer } from './fast-path.ts';
import { sendGone } from './gone-page.ts';
import type { GuardedRedirects } from './guarded-redirects.ts';
import type { CachedLink, LinkCache } from './link-cache.ts';
import { previewerAsking } from './link-extras.ts';
import { NO_LINK, wantsJson } from './miss-pages.ts';
import { sendTarget } from './target-answer.ts';

/** The domain a Host header reaches, with where its unknown codes go (features/domains). */
export interface RouteDomain extends HostDomain {
  notFoundRedirect: string | null;
}

export interface RedirectRouteOptions {
  cache: LinkCache;
  /** The domain of a request's Host header (never a forwarded host); undefined: no links are served there. */
  domainOf: (host: string | undefined) => RouteDomain | undefined;
  answer: RedirectAnswer;
  counter: WindowCounter;
  redirectStatus: 301 | 302 | 307 | 308;
  /** Unknown codes an address may try per minute before it gets 429. */
  notFoundLimit: number;
  now: () => number;
  /** Links with rules: expiry, a visit limit, a password, targeting. */
  guarded: GuardedRedirects;
  /** Suspensions and blocklists (features/abuse). */
  screen: LinkScreen;
  /** Each domain's origin, for the short URL a preview card names. */
  origins: LinkOrigins;
  /** The public stats page of a code on a domain (features/analytics), undefined when it shows none. */
  publicStats?: (domainId: number, code: string) => Promise<string | undefined>;
}

const MINUTE_MS = 60_000;

/** Why a code was not redirected, as a small page (JSON when asked for); 429 and 503 say when to retry. */
export function sendMiss(
  request: FastifyRequest,
  reply: FastifyReply,
  status: 404 | 429 | 503,
  retryAfterSeconds = 60,
): FastifyReply {
  const [title, detail] = NO_LINK[status];
  reply.code(status).header('cache-control', 'no-store');
  if (status !== 404) reply.header('retry-after', String(retryAfterSeconds));
  if (wantsJson(request.headers.accept)) return reply.send({ error: String(status), message: detail });
  return reply.type('text/html; charset=utf-8').send(errorPage(status, title, detail));
}

/** The link of a cold key from the store, or the UnavailableError when the store cannot answer now. */
export async function loadOrUnavailable(cache: LinkCache, key: string) {
  try {
    return await cache.load(key);
  } catch (error) {
    if (error instanceof UnavailableError) return error;
    throw error;
  }
}

/**
 * GET /<short_code>. Cache hits on a listening server are answered below the router (fast-path.ts);
 * this route answers them under inject() and does the cold path: store look-up, 404 and its limiter.
 * Registered on the root instance because it also owns the application-wide not-found answer.
 */
/** Unknown codes per address and minute, and the link of a code or the miss answered for it. */
function lookups(options: RedirectRouteOptions) {
  const { cache, counter } = options;
  const missKey = (request: FastifyRequest) => `miss:${clientKey(request.ip)}`;

  // The enumeration guard fails open: redirects keep working from the store when shared state is down.
  const missesOf = (request: FastifyRequest, add: boolean) => {
    const window = windowAt(options.now(), MINUTE_MS);
    const counted = add
      ? counter.increment(missKey(request), window)
      : counter.peek(missKey(request), window);
    return counted.catch(() => 0);
  };

  async function miss(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const domain = options.domainOf(request.headers.host);
    // A host Snip serves no links on: 404, nothing counted, nothing looked up.
    if (domain === undefined) return sendMiss(request, reply, 404);
    const count = await missesOf(request, true);
    if (count > options.notFoundLimit) return sendMiss(request, reply, 429);
    const { notFoundRedirect } = domain;
    const reading = request.method === 'GET' || request.method === 'HEAD';
    if (notFoundRedirect && reading && !request.url.startsWith('/api/')) {
      return reply.code(302).header('location', notFoundRedirect).header('cache-control', NO_STORE).send();
    }
    return sendMiss(request, reply, 404);
  }

  /**
   * The link of a code: cached, or loaded from the store; undefined when the miss has been answered.
   * (A FastifyReply is thenable: returned from an async function and awaited, it would be lost.)
   */
  async function linkOf(request: FastifyRequest, reply: FastifyReply, code: string) {
    if (!isLinkCode(code)) {
      // No code holds a `+`: /<code>+ costs the redirect nothing until here (docs/api.md §19).
      if (code.endsWith('+') && (request.method === 'GET' || request.method === 'HEAD')) {
        await statsOf(request, reply, code.slice(0, -1));
      } else await miss(request, reply);
      return undefined;
    }
    const domain = options.domainOf(request.headers.host);
    if (domain === undefined) {
      sendMiss(request, reply, 404);
      return undefined;
    }
    const key = domain.keyPrefix + code;
    let link = cache.peek(key);
    if (link === undefined) {
      // Enumeration guard: an address that keeps missing stops costing store reads.
      const misses = await missesOf(request, false);
      if (misses >= options.notFoundLimit) {
        sendMiss(request, reply, 429);
        return undefined;
      }
      const loaded = await loadOrUnavailable(cache, key);
      if (loaded instanceof UnavailableError) {
        sendMiss(request, reply, 503, loaded.retryAfterSeconds);
        return undefined;
      }
      link = loaded ?? null;
    }
    if (link === null) {
      await miss(request, reply);
      return undefined;
    }
    return link;
  }

  /** /<code>+: the link's public stats page, else the ordinary miss (counted by the same guard). */
  async function statsOf(request: FastifyRequest, reply: FastifyReply, code: string): Promise<void> {
    const domain = options.domainOf(request.headers.host);
    if (!options.publicStats || domain === undefined || !isLinkCode(code)) {
      await miss(request, reply);
      return;
    }
    if ((await missesOf(request, false)) >= options.notFoundLimit) {
      sendMiss(request, reply, 429);
      return;
    }
    let page: string | undefined;
    try {
      page = await options.publicStats(domain.id, code);
    } catch (error) {
      if (!(error instanceof UnavailableError)) throw error;
      sendMiss(request, reply, 503, error.retryAfterSeconds);
      return;
    }
    if (page === undefined) {
      await miss(request, reply);
      return;
    }
    reply
      .code(200)
      .header('cache-control', 'public, max-age=60')
      .header('x-robots-tag', 'noindex')
      .type('text/html; charset=utf-8')
      .send(page);
  }

  return { miss, linkOf };
}

export function registerRedirects(app: FastifyInstance, options: RedirectRouteOptions): void {
  const { miss, linkOf } = lookups(options);
  /** Disabled by an operator, its workspace suspended, or a target host blocked: 410, nothing counted. */
  const withheld = (link: CachedLink) =>
    link.guard?.disabled === true || (options.screen.active && options.screen.withholds(link));
  app.setNotFoundHandler((request, reply) => miss(request, reply));

  const anyPath = { anyPath: true };
  app.get<{ Params: { code: string } }>(
    '/:code',
    { schema: { hide: true }, config: anyPath },
    async (request, reply) => {
      const { code } = request.params;
      const link = await linkOf(request, reply, code);
      if (!link) return reply;
      if (withheld(link)) return sendGone(request, reply, 'disabled');
      if (link.guard) return options.guarded.get(request, reply, code, link);
      if (link.extras) {
        const { method } = request;
        const previewer = previewerAsking(link.extras, method, request.headers['user-agent']);
        const status = options.redirectStatus;
        return sendTarget(options, request, reply, {
          link,
          location: link.location,
          status,
          method,
          previewer,
        });
      }
      options.answer(link, request.method, request.raw);
      return reply
        .code(options.redirectStatus)
        .header('location', link.location)
        .header('cache-control', NO_STORE)
        .send();
    },
  );

  // The password form of a protected link posts here (docs/api.md §8.2).
  app.post<{ Params: { code: string } }>(
    '/:code',
    { schema: { hide: true }, bodyLimit: 16_384, config: anyPath },
    async (request, reply) => {
      const { code } = request.params;
      const link = await linkOf(request, reply, code);
      if (!link) return reply;
      if (withheld(link)) return sendGone(request, reply, 'disabled');
      // A link without a password (or without any rule) is answered 405 there.
      return options.guarded.post(request, reply, code, link);
    },
  );
}
