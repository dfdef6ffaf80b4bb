import { createServer } from 'node:http';
import swagger from '@fastify/swagger';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { Config } from './config.ts';
import { socialMatcher } from './domain/social.ts';
import { MAX_BODY_BYTES, registerBodyParsers } from './http/body-parsers.ts';
import { envelopeRenderer } from './http/envelope.ts';
import { fastRedirect, redirectAnswer } from './http/fast-redirect.ts';
import { countRequests, createMetrics, observeRuntime, timedInspector, timedStore } from './http/metrics.ts';
import { openapiDocument } from './http/openapi.ts';
import { accountArea } from './http/routes/account-area.ts';
import { createRoute } from './http/routes/create.ts';
import { demoRoutes } from './http/routes/demo.ts';
import { opsRoutes, type ReadinessCheck } from './http/routes/ops.ts';
import { pageRoutes } from './http/routes/pages.ts';
import { qrcodeRoute } from './http/routes/qrcode.ts';
import { registerRedirects } from './http/routes/redirect.ts';
import { ErrorEnvelope, SuccessEnvelope } from './http/schemas.ts';
import { addSecurityHeaders } from './http/security-headers.ts';
import { createInspector } from './inspect/inspector.ts';
import type { Inspector } from './inspect/types.ts';
import { ClickBuffer } from './services/click-buffer.ts';
import { createLinkService } from './services/create-link.ts';
import { demoKeyGate, demoLinkStore } from './services/demo.ts';
import { InFlight } from './services/in-flight.ts';
import { accountKeyGate, sessionKeyGate } from './services/key-gate.ts';
import { type DemoLog, MemoryDemoLog } from './state/demo-log.ts';
import { type CachedLink, LinkCache } from './state/link-cache.ts';
import { type LinkEvents, LocalLinkEvents } from './state/link-events.ts';
import { MemoryWindowCounter, type WindowCounter } from './state/window-counter.ts';
import type { Link, Store } from './store/ports.ts';

export interface AppDeps {
  store: Store;
  /** Defaults to the real inspector with the configured address guard. */
  inspector?: Inspector;
  counter?: WindowCounter;
  demoLog?: DemoLog;
  /** Cache invalidation across instances (Redis pub/sub); in-process by default. */
  linkEvents?: LinkEvents;
  /** Dependencies besides the store that /readyz checks (Redis). */
  readinessChecks?: ReadinessCheck[];
  logger?: FastifyServerOptions['logger'];
  now?: () => number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Buffered click counts; tests and shutdown flush them. */
    clicks: ClickBuffer;
    linkCache: LinkCache;
    demoLog: DemoLog;
    /** Announce a changed or deleted link so every instance drops it from its cache. */
    linkEvents: LinkEvents;
  }
}

/** Builds the whole application without listening; tests call inject() on it. */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const metrics = createMetrics();
  const store = timedStore(deps.store, metrics);
  const cached = (link: Link): CachedLink => ({ id: link.id, location: new URL(link.longUrl).href });
  const cache = new LinkCache(
    async (code) => {
      const link = await store.findLinkByCode(code);
      return link && cached(link);
    },
    { max: config.linkCacheSize, missTtlMs: 5000 },
  );
  let log: FastifyBaseLogger | undefined;
  const clicks = new ClickBuffer(store, {
    intervalMs: config.clickFlushMs,
    onError: (error) => log?.error({ err: error }, 'writing clicks failed; kept for the next flush'),
  });
  // Label lookups resolved once: these counters move on every redirect.
  const redirectsByKind = { human: metrics.redirects.labels('human'), bot: metrics.redirects.labels('bot') };
  const answer = redirectAnswer({
    clicks,
    redirectStatus: config.redirectStatus,
    onRedirect: (kind) => redirectsByKind[kind].inc(),
  });
  const fast = fastRedirect(cache, answer, config.redirectStatus);
  const fastHits = {
    GET: metrics.requests.labels('/:code', 'GET', String(config.redirectStatus)),
    HEAD: metrics.requests.labels('/:code', 'HEAD', String(config.redirectStatus)),
  };

  const options: FastifyServerOptions = {
    logger: deps.logger ?? false,
    // A hop count: only the addresses the operator's own proxies appended are believed (proxy-addr semantics).
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    bodyLimit: MAX_BODY_BYTES,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    // No per-request info lines on the hot path; errors are still logged, with keys redacted.
    logController: new LogController({ disableRequestLogging: true }),
    // Hot-link redirects are answered before the router; everything else is the application's.
    serverFactory: (handler) =>
      createServer((req, res) => {
        if (fast(req, res)) fastHits[req.method as 'GET' | 'HEAD'].inc();
        else handler(req, res);
      }),
  };
  const app: FastifyInstance = Fastify(options);
  log = app.log;
  addSecurityHeaders(app);
  countRequests(app, metrics);
  const ownInspector = deps.inspector
    ? undefined
    : createInspector({ allowPrivate: config.allowPrivateTargets });
  const inspector = timedInspector(deps.inspector ?? (ownInspector as Inspector), metrics);
  const counter = deps.counter ?? new MemoryWindowCounter();
  const linkEvents = deps.linkEvents ?? new LocalLinkEvents();
  linkEvents.onChanged((code) => cache.invalidate(code));
  const inFlight = new InFlight();
  app.addHook('onClose', async () => {
    await inFlight.settled();
    await clicks.close();
    await ownInspector?.close();
  });
  observeRuntime(metrics, clicks, cache);

  await registerBodyParsers(app);
  app.addSchema(SuccessEnvelope);
  app.addSchema(ErrorEnvelope);
  await app.register(swagger, {
    openapi: openapiDocument(config.baseUrl),
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  const checks = {
    inspector,
    counter,
    isSocial: socialMatcher(config.socialDomains),
    baseUrl: config.baseUrl,
    failedKeyLimit: config.failedKeyLimit,
    failedKeyWindowMs: config.failedKeyWindowSeconds * 1000,
    now: deps.now,
  };
  const createLink = inFlight.track(
    createLinkService({
      ...checks,
      store,
      gate: accountKeyGate(store),
      onCreated: (link) => cache.remember(link.code, cached(link)),
    }),
  );
  const envelopeFor = (endpoint: string) =>
    envelopeRenderer({
      ...config,
      now: deps.now,
      onOutcome: (error) => metrics.createOutcomes.inc({ endpoint, error }),
    });
  await app.register(createRoute, {
    path: '/create',
    createLink,
    envelope: envelopeFor('/create'),
    summary: 'Create a short link',
  });

  const demoLog = deps.demoLog ?? new MemoryDemoLog();
  await app.register(demoRoutes, {
    createLink: inFlight.track(
      createLinkService({
        ...checks,
        store: demoLinkStore(store),
        gate: demoKeyGate(config.demoApiKey, config.demoRateLimit, config.demoRateWindowSeconds * 1000),
      }),
    ),
    envelope: envelopeFor('/demo/create'),
    log: demoLog,
    demoKey: config.demoApiKey,
    heartbeatMs: config.sseHeartbeatSeconds * 1000,
    now: deps.now ?? Date.now,
  });
  app.decorate('demoLog', demoLog);

  await app.register(pageRoutes, {});
  // Account holders' pages: sign-up/in/out, the dashboard and Account Settings (ADR 009, 010). The
  // dashboard creates links through the /create story, gated by the session's account.
  await app.register(accountArea, {
    config,
    store,
    counter,
    createLink: inFlight.track(
      createLinkService({
        ...checks,
        store,
        gate: sessionKeyGate(store),
        onCreated: (link) => cache.remember(link.code, cached(link)),
      }),
    ),
    onLinkDeleted: (code) => linkEvents.changed(code),
    now: deps.now ?? Date.now,
  });
  await app.register(qrcodeRoute, { cache, baseUrl: config.baseUrl });
  registerRedirects(app, {
    cache,
    answer,
    counter,
    redirectStatus: config.redirectStatus,
    notFoundLimit: config.notFoundLimit,
    now: deps.now ?? Date.now,
  });
  app.decorate('clicks', clicks);
  app.decorate('linkCache', cache);
  app.decorate('linkEvents', linkEvents);
  await app.register(opsRoutes, {
    checks: [{ name: 'store', check: () => store.ping() }, ...(deps.readinessChecks ?? [])],
    registry: metrics.registry,
    timeoutMs: 2000,
  });

  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-disposition', 'inline; filename="openapi.json"');
    return app.swagger();
  });
  return app;
}
