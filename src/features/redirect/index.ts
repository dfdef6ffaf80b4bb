import type { FastifyInstance } from 'fastify';
import type { CountryLookup } from '../../core/ports/geo.ts';
import type { QrImages } from '../../core/ports/qr-images.ts';
import type { WindowCounter } from '../../core/ports/shared-state.ts';
import type { VisitLimits } from '../../core/ports/visit-limits.ts';
import type { LinkOrigins } from '../../core/short-url.ts';
import type { RedirectAnswer } from './fast-path.ts';
import { type GuardedOptions, guardedRedirects } from './guarded-redirects.ts';
import type { LinkCache } from './link-cache.ts';
import { qrcodeRoute } from './qrcode.ts';

export { qrApiRoutes } from './qr-api.ts';

/**
 * Wrong passwords an address may try per protected link in a window, and a link may take from
 * every address together in an hour (docs/api.md §8.2).
 */
export const PASSWORD_TRIES = {
  limit: 10,
  windowMs: 15 * 60_000,
  perLink: { limit: 100, windowMs: 3_600_000 },
};

import { type RedirectRouteOptions, registerRedirects } from './route.ts';

/**
 * GET /<code> and its QR image. The hot path below the router (redirect-path.ts builds it, app.ts
 * puts it in front of the router); this registers the routes that answer everything else: cold
 * codes, misses and their limiter, HEAD under inject(), and /qrcode/<code>.png.
 */
export interface RedirectFeatureOptions {
  cache: LinkCache;
  /** QR images, drawn off the redirect's thread. */
  images: QrImages;
  answer: RedirectAnswer;
  counter: WindowCounter;
  redirectStatus: 301 | 302 | 307 | 308;
  notFoundLimit: number;
  baseUrl: URL;
  now: () => number;
  /** Visit limits: Redis when configured, the store otherwise. */
  limits: VisitLimits;
  countries: CountryLookup;
  /** Believe a CDN's country header (CF-IPCountry, CloudFront-Viewer-Country): only behind TRUST_PROXY. */
  trustCountryHeaders: boolean;
  /** Wrong passwords an address may try per link and window (docs/api.md §8.2: 10 in 15 minutes). */
  passwordTries: GuardedOptions['passwordTries'];
  /** The domain a Host header reaches (never a forwarded host); undefined: no links are served there. */
  domainOf: RedirectRouteOptions['domainOf'];
  /** Each domain's origin, for the URL a QR code holds. */
  origins: LinkOrigins;
  /** Suspensions and blocklists (features/abuse): a link they withhold answers 410. */
  screen: RedirectRouteOptions['screen'];
}

/** The redirect's routes: logged only at debug, like the hot path's answers. */
export const REDIRECT_ROUTES: ReadonlySet<string> = new Set(['/:code', '/qrcode/:file']);

/** Called on the root instance: the redirect also owns the application-wide not-found answer. */
export async function redirectFeature(app: FastifyInstance, options: RedirectFeatureOptions): Promise<void> {
  const { cache, images, origins, domainOf } = options;
  await app.register(qrcodeRoute, { cache, images, origins, domainOf });
  const guarded = guardedRedirects({
    answer: options.answer,
    limits: options.limits,
    counter: options.counter,
    countries: options.countries,
    trustCountryHeaders: options.trustCountryHeaders,
    redirectStatus: options.redirectStatus,
    now: options.now,
    passwordTries: options.passwordTries,
    origins,
  });
  registerRedirects(app, { ...options, guarded });
}

export type { LinkScreen } from './fast-path.ts';
export type { LinkCache } from './link-cache.ts';
export { redirectPath } from './redirect-path.ts';
export { storeVisitLimits } from './visit-limits.ts';
