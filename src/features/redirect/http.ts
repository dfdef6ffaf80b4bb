import type { FeatureHttp } from '../../kernel/feature.ts';
import { guardedRedirects } from './guarded-redirects.ts';
import type { LinkCache } from './link-cache.ts';
import { qrApiRoutes } from './qr-api.ts';
import { qrcodeRoute } from './qrcode.ts';
import { registerRedirects } from './route.ts';

declare module 'fastify' {
  interface FastifyInstance {
    linkCache: LinkCache;
  }
}

/**
 * Wrong passwords an address may try per protected link in a window, and a link may take from
 * every address together in an hour (docs/api.md §8.2).
 */
export const PASSWORD_TRIES = {
  limit: 10,
  windowMs: 15 * 60_000,
  perLink: { limit: 100, windowMs: 3_600_000 },
};

/**
 * GET /<code> and its QR image. The hot path answers below the router; the routes answer
 * everything else: cold codes, misses and their limiter, HEAD under inject(), /qrcode/<code>.png,
 * and the application-wide not-found answer. Its routes are logged only at debug, like the hot
 * path's answers.
 */
export const redirectHttp: FeatureHttp<'links'> = {
  quiet: ['/:code', '/qrcode/:file'],
  async belowRouter(kernel) {
    const { fast, counted } = await kernel.use('redirect');
    return (req, res) => {
      if (!fast(req, res)) return false;
      counted.answeredBelowRouter(req.method as string, res.statusCode);
      return true;
    };
  },
  async api(v1, kernel, ports) {
    const { images } = await kernel.use('redirect');
    const domains = await kernel.use('domains');
    await v1.register(qrApiRoutes, {
      store: ports.links,
      images,
      origins: domains.registry,
      domainOf: domains.addressed,
    });
  },
  async routes(app, kernel) {
    const redirect = await kernel.use('redirect');
    const domains = await kernel.use('domains');
    const { config, now } = kernel;
    const { cache, images } = redirect;
    const origins = domains.registry;
    const domainOf = (host: string | undefined) => domains.registry.served(host);
    app.decorate('linkCache', cache);
    await app.register(qrcodeRoute, { cache, images, origins, domainOf });
    const guarded = guardedRedirects({
      answer: redirect.answer,
      limits: redirect.limits,
      counter: kernel.counter,
      countries: redirect.countries,
      trustCountryHeaders: config.trustProxy !== false,
      redirectStatus: config.redirectStatus,
      now,
      passwordTries: PASSWORD_TRIES,
      origins,
      visitor: redirect.visitor,
    });
    registerRedirects(app, {
      cache,
      domainOf,
      answer: redirect.answer,
      counter: kernel.counter,
      redirectStatus: config.redirectStatus,
      notFoundLimit: config.notFoundLimit,
      now,
      guarded,
      screen: (await kernel.use('abuse')).screen,
      origins,
      publicStats: (await kernel.use('analytics')).publicStats,
    });
  },
};
