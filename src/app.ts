import { randomBytes } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { withDeadline } from './adapters/deadline.ts';
import { createInspector } from './adapters/inspect/inspector.ts';
import { MemoryDemoLog } from './adapters/memory/demo-log.ts';
import { LocalLinkEvents } from './adapters/memory/link-events.ts';
import { MemoryVisitors } from './adapters/memory/visitors.ts';
import { MemoryWindowCounter } from './adapters/memory/window-counter.ts';
import type { Config } from './config.ts';
import { accountGroups } from './core/groups.ts';
import { accountKeys } from './core/key-authentication.ts';
import type { CountryLookup } from './core/ports/geo.ts';
import type { Inspector } from './core/ports/inspector.ts';
import type { ReadinessCheck } from './core/ports/readiness.ts';
import type { DemoLog, LinkEvents, WindowCounter } from './core/ports/shared-state.ts';
import type { Store } from './core/ports/store.ts';
import type { VisitLimits } from './core/ports/visit-limits.ts';
import type { Visitors } from './core/ports/visitors.ts';
import { socialMatcher } from './core/social.ts';
import { ACCOUNT_ASSETS, accountsFeature, frameOfSession } from './features/accounts/index.ts';
import { KeyUses } from './features/accounts/key-uses.ts';
import { accountServices } from './features/accounts/services.ts';
import { createLinkService } from './features/create/create-link.ts';
import { demoKeys, demoLinkStore } from './features/create/demo.ts';
import { InFlight } from './features/create/in-flight.ts';
import { CREATE_ASSETS, CREATE_SCHEMAS, createFeature } from './features/create/index.ts';
import { pageCursors } from './features/links/cursor.ts';
import { linkEditor } from './features/links/edit-link.ts';
import { LINK_SCHEMAS, linksFeature } from './features/links/index.ts';
import { linksApi } from './features/links/links-api.ts';
import { OPS_ASSETS, opsFeature } from './features/ops/index.ts';
import {
  countRequests,
  createMetrics,
  observeRuntime,
  redirectCounters,
  timedInspector,
  timedStore,
} from './features/ops/metrics.ts';
import { collectOpenapi } from './features/ops/openapi.ts';
import { ClickBuffer } from './features/redirect/click-buffer.ts';
import { fastRedirect, redirectAnswer } from './features/redirect/fast-path.ts';
import { fastTargeting } from './features/redirect/fast-targeting.ts';
import { REDIRECT_ROUTES, redirectFeature } from './features/redirect/index.ts';
import {
  type CachedLink,
  cachedLink,
  type LinkCache,
  linkCacheOver,
} from './features/redirect/link-cache.ts';
import { retentionSweep } from './features/redirect/retention.ts';
import { visitBatchMaker } from './features/redirect/visit-batch.ts';
import { storeVisitLimits } from './features/redirect/visit-limits.ts';
import { visitRecorder } from './features/redirect/visits.ts';
import { logAccess } from './http/access-log.ts';
import { registerBodyParsers } from './http/body-parsers.ts';
import { ProblemSchema } from './http/openapi-parts.ts';
import { addSecurityHeaders, everyAnswerHeaders } from './http/security-headers.ts';
import { serverOptions } from './http/server-options.ts';
import { assetRoutes, WEB_ASSETS } from './web/assets.ts';

/**
 * The one composition root: the adapters it is given (or in-memory ones), the services built on
 * them once, and the features that answer HTTP, wired through ports.
 */
export interface AppDeps {
  store: Store;
  /** Defaults to the real inspector with the configured address guard. */
  inspector?: Inspector;
  counter?: WindowCounter;
  demoLog?: DemoLog;
  /** Cache invalidation across instances (Redis pub/sub); in-process by default. */
  linkEvents?: LinkEvents;
  /** Visit limits shared by every instance (Redis); the store's atomic update by default. */
  visitLimits?: VisitLimits;
  /** The country of a client address, for targeting rules and analytics; none known by default. */
  countries?: CountryLookup;
  /** The day's unique-visitor sets (Redis for several instances); in memory by default. */
  visitors?: Visitors;
  /** Dependencies besides the store that /readyz checks (Redis). */
  readinessChecks?: ReadinessCheck[];
  logger?: FastifyServerOptions['logger'];
  now?: () => number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Buffered click counts; tests and shutdown flush them. */
    clicks: ClickBuffer;
    /** Deletes raw click events past the retention; tests sweep at once. */
    retention: { sweep(): Promise<number> };
    /** Buffered last-used times of keys. */
    keyUses: KeyUses;
    linkCache: LinkCache;
    demoLog: DemoLog;
  }
}

/** Wrong passwords an address may try per protected link in a window (docs/api.md §8.2). */
const PASSWORD_TRIES = 10;
const PASSWORD_TRIES_WINDOW_MS = 15 * 60_000;

/** Builds the whole application without listening; tests call inject() on it. */
/** The redirect's look-up at once, when the store is embedded (docs/adr/021-cold-codes-below-the-router.md). */
function lookupNow(store: Store): ((code: string) => CachedLink | undefined) | undefined {
  const find = store.findLinkByCodeNow?.bind(store);
  if (!find) return undefined;
  return (code) => {
    const link = find(code);
    return link && cachedLink(link);
  };
}

export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const now = deps.now ?? Date.now;
  const metrics = createMetrics();
  const store = timedStore(withDeadline(deps.store, config.storeTimeoutMs), metrics);
  const counter = deps.counter ?? new MemoryWindowCounter();
  const demoLog = deps.demoLog ?? new MemoryDemoLog();
  const linkEvents = deps.linkEvents ?? new LocalLinkEvents();
  const ownInspector = deps.inspector
    ? undefined
    : createInspector({ allowPrivate: config.allowPrivateTargets });
  const inspector = timedInspector(deps.inspector ?? (ownInspector as Inspector), metrics);

  // The redirect: hot links in memory, clicks buffered, every change heard from any instance.
  const cache = linkCacheOver((code) => store.findLinkByCode(code), {
    max: config.linkCacheSize,
    ttlMs: config.linkCacheTtlSeconds * 1000,
  });
  linkEvents.onChanged((code) => cache.invalidate(code));
  linkEvents.onMissed(() => cache.clear());
  let log: FastifyBaseLogger | undefined;
  const countries = deps.countries ?? { countryOf: () => undefined };
  const clicks = new ClickBuffer(store, {
    intervalMs: config.clickFlushMs,
    now,
    onError: (error) => log?.error({ err: error }, 'writing clicks failed; kept for the next flush'),
    makeVisits:
      config.tracking === 'full'
        ? visitBatchMaker({ visitors: deps.visitors ?? new MemoryVisitors(), countries })
        : undefined,
  });
  const counted = redirectCounters(metrics, config.redirectStatus);
  const record = visitRecorder(clicks, {
    tracking: config.tracking,
    honorDnt: config.honorDnt,
    exclude: config.trackingExclude,
    trustProxy: config.trustProxy,
    now,
  });
  const answer = redirectAnswer({ record, onRedirect: counted.redirected });
  // Raw events age out; the per-day aggregates stay (docs/api.md §9.2).
  const sweep = retentionSweep(store, {
    retentionDays: config.analyticsRetentionDays,
    now,
    onError: (error) => log?.error({ err: error }, 'deleting old click events failed'),
  });
  const https = config.baseUrl.protocol === 'https:';
  const fast = fastRedirect(
    cache,
    answer,
    config.redirectStatus,
    everyAnswerHeaders(https),
    fastTargeting({ now, countries, socketIsClient: config.trustProxy === false }),
    lookupNow(deps.store),
  );

  // Creating links: /create and the dashboard share one service; the demo has its own gate and store.
  const inFlight = new InFlight();
  const keyUses = new KeyUses(store, {
    intervalMs: config.clickFlushMs,
    now,
    onError: (error) => log?.error({ err: error }, 'writing key uses failed; kept for the next flush'),
  });
  const keyChecks = {
    counter,
    failedKeyLimit: config.failedKeyLimit,
    failedKeyWindowMs: config.failedKeyWindowSeconds * 1000,
    now,
  };
  const keys = accountKeys(store, { ...keyChecks, onUsed: (keyId) => keyUses.note(keyId) });
  const checks = {
    inspector,
    counter,
    isSocial: socialMatcher(config.socialDomains),
    baseUrl: config.baseUrl,
    now,
  };
  const live = inFlight.trackAll(
    createLinkService({
      ...checks,
      store,
      keys,
      onCreated: (link) => cache.remember(link.code, cachedLink(link)),
    }),
  );
  const demoKeyChecks = {
    ...keyChecks,
    demoKey: config.demoApiKey,
    limit: config.demoRateLimit,
    windowMs: config.demoRateWindowSeconds * 1000,
  };
  const demo = inFlight.trackAll(
    createLinkService({ ...checks, store: demoLinkStore(store), keys: demoKeys(demoKeyChecks) }),
  );

  // Managing links: the API and the dashboard change them through one editor.
  const editor = linkEditor({
    store,
    inspector,
    isSocial: checks.isSocial,
    baseUrl: config.baseUrl,
    linkEvents,
    counter,
    now,
  });
  const groups = accountGroups(store);
  const managed = linksApi({
    store,
    createLinkAs: live.createAs,
    editor,
    groups,
    cursors: pageCursors(await store.secret('page-cursors', randomBytes(32))),
    baseUrl: config.baseUrl,
    now,
    retentionDays: config.analyticsRetentionDays,
  });

  const accounts = await accountServices(config, { store, counter, now });
  await accounts.auth.checkSignupPlan();

  const app: FastifyInstance = Fastify(
    serverOptions({
      trustProxy: config.trustProxy,
      logger: deps.logger,
      maxConnections: config.maxConnections,
      beforeRouter: (req, res) => {
        if (!fast(req, res)) return false;
        counted.answeredBelowRouter(req.method as string);
        if (debugRedirects)
          log?.debug({ method: req.method, route: '/:code', status: res.statusCode }, 'request');
        return true;
      },
    }),
  );
  log = app.log;
  const debugRedirects = ['debug', 'trace'].includes(app.log.level);
  addSecurityHeaders(app, { https });
  countRequests(app, metrics);
  logAccess(app, { quiet: REDIRECT_ROUTES });
  observeRuntime(metrics, { clicks, cache });
  app.addHook('onClose', async () => {
    await inFlight.settled();
    sweep.stop();
    await clicks.close();
    await keyUses.close();
    await ownInspector?.close();
    await demoLog.close();
    await linkEvents.close();
  });
  app.decorate('clicks', clicks);
  app.decorate('keyUses', keyUses);
  app.decorate('retention', { sweep: sweep.sweep });
  app.decorate('linkCache', cache);
  app.decorate('demoLog', demoLog);

  await registerBodyParsers(app);
  await app.register(cookie);
  for (const schema of [...CREATE_SCHEMAS, ProblemSchema, ...LINK_SCHEMAS]) app.addSchema(schema);
  await collectOpenapi(app, config.baseUrl);
  const frameOf = frameOfSession(accounts.session);
  await app.register(createFeature, {
    live,
    demo,
    envelope: { ...config, now },
    onOutcome: (endpoint, error) => metrics.createOutcomes.inc({ endpoint, error }),
    demoLog,
    demoKey: config.demoApiKey,
    heartbeatMs: config.sseHeartbeatSeconds * 1000,
    now,
    frameOf,
  });
  await app.register(linksFeature, { api: managed, keys, baseUrl: config.baseUrl });
  await app.register(accountsFeature, {
    ...accounts,
    createLinkFor: live.forAccount,
    editor,
    baseUrl: config.baseUrl,
    signupOpen: config.signup === 'open',
  });
  await app.register(assetRoutes, {
    files: { ...WEB_ASSETS, ...CREATE_ASSETS, ...ACCOUNT_ASSETS, ...OPS_ASSETS },
  });
  await redirectFeature(app, {
    cache,
    answer,
    counter,
    redirectStatus: config.redirectStatus,
    notFoundLimit: config.notFoundLimit,
    baseUrl: config.baseUrl,
    now,
    limits: deps.visitLimits ?? storeVisitLimits(store),
    countries,
    trustCountryHeaders: config.trustProxy !== false,
    passwordTries: { limit: PASSWORD_TRIES, windowMs: PASSWORD_TRIES_WINDOW_MS },
  });
  await app.register(opsFeature, {
    checks: [{ name: 'store', check: () => store.ping() }, ...(deps.readinessChecks ?? [])],
    registry: metrics.registry,
    timeoutMs: config.storeTimeoutMs,
    frameOf,
  });
  return app;
}
