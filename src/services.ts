import { randomBytes } from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';
import { withDeadline } from './adapters/deadline.ts';
import { listFetcher } from './adapters/inspect/fetch-list.ts';
import { createInspector } from './adapters/inspect/inspector.ts';
import type { Resolver } from './adapters/inspect/types.ts';
import { smtpMailer } from './adapters/mail/smtp-mailer.ts';
import { MemoryDemoLog } from './adapters/memory/demo-log.ts';
import { LocalLinkEvents } from './adapters/memory/link-events.ts';
import { MemoryVisitors } from './adapters/memory/visitors.ts';
import { MemoryWindowCounter } from './adapters/memory/window-counter.ts';
import { threadQrImages } from './adapters/qr/qr-thread.ts';
import type { Config } from './config.ts';
import type { Link } from './core/entities.ts';
import { accountKeys, mainKeys } from './core/key-authentication.ts';
import type { CountryLookup } from './core/ports/geo.ts';
import type { Inspector } from './core/ports/inspector.ts';
import type { KeyAuthenticator } from './core/ports/key-auth.ts';
import type { Mailer } from './core/ports/mailer.ts';
import type { ReadinessCheck } from './core/ports/readiness.ts';
import type { DemoLog, LinkEvents, WindowCounter } from './core/ports/shared-state.ts';
import type { Store } from './core/ports/store.ts';
import type { TxtResolver } from './core/ports/txt-resolver.ts';
import type { VisitLimits } from './core/ports/visit-limits.ts';
import type { Visitors } from './core/ports/visitors.ts';
import type { LinkEventSink } from './core/ports/webhook-store.ts';
import { socialMatcher } from './core/social.ts';
import { AbuseScreen, abuseServices } from './features/abuse/index.ts';
import { visitCollection } from './features/analytics/index.ts';
import { demoKeys, demoLinkStore } from './features/demo/index.ts';
import { type DomainsService, domainServices } from './features/domains/index.ts';
import {
  type CreateLinkStore,
  createLinkService,
  InFlight,
  linkEditor,
  pageCursors,
} from './features/links/index.ts';
import { createMetrics, redirectCounters, timedInspector, timedStore } from './features/ops/index.ts';
import { redirectPath, storeVisitLimits } from './features/redirect/index.ts';
import { KeyUses } from './features/workspaces/index.ts';
import { type LateLogger, lateLogger } from './http/late-logger.ts';
import { type EventServices, eventServices, pageServices } from './page-services.ts';

/**
 * Every service, built once from the adapters given (or in-memory ones) and the settings: the
 * server's (app.ts) and the link services the command line uses too (cli.ts).
 */

/** What the process (or a test) gives the server. */
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
  /** Where mail goes; by default SMTP_URL through nodemailer, or none without it. */
  mailer?: Mailer;
  /** TXT look-ups that verify domains; the system resolver by default (tests inject theirs). */
  resolveTxt?: TxtResolver;
  /** Name look-ups of webhook endpoints; the system resolver by default (tests inject theirs). */
  resolveWebhooks?: Resolver;
}

/** What creating and changing links run on, in the server and in `snip link …` alike. */
export interface LinkPorts {
  inspector: Inspector;
  counter: WindowCounter;
  /** The domains links go on (docs/api.md §12). */
  domains: Pick<DomainsService, 'forNewLink' | 'isOwnHost'>;
  /** The operators' blocklists and suspensions (docs/api.md §13). */
  isBlocked?: (host: string) => boolean;
  isSuspended?: (workspaceId: number) => boolean;
  now?: () => number;
  /** Makes the events of links' changes in their transactions (docs/api.md §14). */
  events?: LinkEventSink;
}

/** The create service of POST /create, /api/v1, the dashboard, the demo and `snip link import`. */
export function createService(
  config: Config,
  ports: LinkPorts & { store: CreateLinkStore; keys: KeyAuthenticator; onCreated?: (link: Link) => void },
) {
  return createLinkService({
    ...ports,
    isSocial: socialMatcher(config.socialDomains),
    baseUrl: config.baseUrl,
  });
}

/** The link editor of /api/v1, the dashboard and `snip link edit|delete`. */
export function editorService(config: Config, ports: LinkPorts & { store: Store; linkEvents: LinkEvents }) {
  return linkEditor({ ...ports, isSocial: socialMatcher(config.socialDomains), baseUrl: config.baseUrl });
}

/** The visits a redirect records and the redirect's hot path, with its metrics. */
function redirectServices(
  config: Config,
  deps: AppDeps,
  base: Base,
  domains: Domains,
  events: EventServices,
) {
  const { store, now, log, metrics } = base;
  const countries = deps.countries ?? { countryOf: () => undefined };
  const collection = visitCollection({
    store,
    tracking: config.tracking,
    honorDnt: config.honorDnt,
    exclude: config.trackingExclude,
    trustProxy: config.trustProxy,
    now,
    flushMs: config.clickFlushMs,
    retentionDays: config.analyticsRetentionDays,
    visitors: deps.visitors ?? new MemoryVisitors(),
    countries,
    onFlushError: log.error('writing clicks failed; kept for the next flush'),
    onSweepError: log.error('deleting old click events failed'),
    notices: events.clickNotices,
  });
  const counted = redirectCounters(metrics, config.redirectStatus);
  const redirect = redirectPath({
    store,
    embedded: deps.store,
    linkEvents: base.linkEvents,
    domainOf: (host) => domains.registry.served(host),
    onDomainsChanged: domains.reload,
    screen: base.screen,
    cache: { max: config.linkCacheSize, ttlMs: config.linkCacheTtlSeconds * 1000 },
    record: collection.record,
    onRedirect: counted.redirected,
    redirectStatus: config.redirectStatus,
    https: config.baseUrl.protocol === 'https:',
    countries,
    socketIsClient: config.trustProxy === false,
    now,
  });
  const limits = deps.visitLimits ?? storeVisitLimits(store);
  const images = threadQrImages();
  return { ...collection, ...redirect, counted, countries, limits, images };
}

/** Keys, and the services that create and change links: /create's, the demo's, the editor. */
async function linkServices(
  config: Config,
  base: Base,
  domains: DomainsService,
  onCreated: (link: Link) => void,
  events: LinkEventSink,
) {
  const { store, counter, now, inspector } = base;
  const keyUses = new KeyUses(store, {
    intervalMs: config.clickFlushMs,
    now,
    onError: base.log.error('writing key uses failed; kept for the next flush'),
  });
  const keyChecks = {
    counter,
    failedKeyLimit: config.failedKeyLimit,
    failedKeyWindowMs: config.failedKeyWindowSeconds * 1000,
    now,
  };
  const onUsed = (keyId: number) => keyUses.note(keyId);
  const keys = accountKeys(store, { ...keyChecks, onUsed });
  const workspaceKeys = mainKeys(store, { ...keyChecks, onUsed });
  const inFlight = new InFlight();
  const isBlocked = (host: string) => base.screen.blocksHost(host);
  const isSuspended = (workspaceId: number) => base.screen.isSuspended(workspaceId);
  const ports = { inspector, counter, now, domains, isBlocked, isSuspended, events };
  const live = inFlight.trackAll(createService(config, { ...ports, store, keys, onCreated }));
  const demoGate = {
    ...keyChecks,
    demoKey: config.demoApiKey,
    limit: config.demoRateLimit,
    windowMs: config.demoRateWindowSeconds * 1000,
  };
  const demo = inFlight.trackAll(
    createService(config, { ...ports, store: demoLinkStore(store), keys: demoKeys(demoGate) }),
  );
  const editor = editorService(config, { ...ports, store, linkEvents: base.linkEvents });
  const cursors = pageCursors(await store.secret('page-cursors', randomBytes(32)));
  return { keyUses, keys, workspaceKeys, inFlight, live, demo, editor, cursors };
}

/** The store as requests use it (deadlines, metrics), the shared state, the inspector. */
function baseServices(config: Config, deps: AppDeps, log: LateLogger) {
  const metrics = createMetrics();
  // Blocklists and suspensions (features/abuse), read once the store is ready; a redirect hop to a
  // blocked host is never fetched.
  const screen = new AbuseScreen(withDeadline(deps.store, config.storeTimeoutMs));
  const blockedHost = (host: string) => screen.blocksHost(host);
  const ownInspector = deps.inspector
    ? undefined
    : createInspector({ allowPrivate: config.allowPrivateTargets, blockedHost });
  return {
    screen,
    now: deps.now ?? Date.now,
    log,
    metrics,
    store: timedStore(withDeadline(deps.store, config.storeTimeoutMs), metrics),
    counter: deps.counter ?? new MemoryWindowCounter(),
    demoLog: deps.demoLog ?? new MemoryDemoLog(),
    linkEvents: deps.linkEvents ?? new LocalLinkEvents(),
    ownInspector,
    inspector: timedInspector(deps.inspector ?? (ownInspector as Inspector), metrics),
    mailer: deps.mailer ?? (config.mail ? smtpMailer(config.mail) : undefined),
  };
}

type Base = ReturnType<typeof baseServices>;
type Domains = Awaited<ReturnType<typeof domainServices>>;
export async function serverServices(config: Config, deps: AppDeps) {
  const log = lateLogger();
  const base = baseServices(config, deps, log);
  const { store, linkEvents } = base;
  const domains = await domainServices({
    baseUrl: config.baseUrl,
    store,
    linkEvents,
    resolveTxt: deps.resolveTxt,
    refreshMs: config.linkCacheTtlSeconds * 1000,
    onRefreshError: log.error('reading the domains failed; the last ones known are kept'),
    audit: (entry) => store.addAudit(entry).catch(log.error('the audit log could not be written')),
  });
  const lists = listFetcher({ allowPrivate: config.allowPrivateTargets });
  const { reportEmail } = config.abuse;
  const events = eventServices(config, base, domains.registry, deps.resolveWebhooks);
  const abuse = await abuseServices({
    ...base,
    pollMs: Math.min(1000, config.linkCacheTtlSeconds * 1000),
    domainOf: (host) => domains.registry.served(host)?.id,
    lists: {
      urls: config.abuse.blocklistUrls,
      refreshHours: config.abuse.blocklistRefreshHours,
      fetch: lists.fetch,
    },
    mail:
      base.mailer && reportEmail
        ? { mailer: base.mailer, to: reportEmail, baseUrl: config.baseUrl }
        : undefined,
    onError: (what) => log.error(what),
    events: events.sink,
  });
  const redirect = redirectServices(config, deps, base, domains, events);
  base.screen.onTakedown(() => redirect.cache.clear());
  const links = await linkServices(config, base, domains.domains, redirect.remember, events.sink);
  await events.start();
  const pages = await pageServices(config, base);

  /** In order: requests in flight, then what is buffered, then the connections. */
  async function close(): Promise<void> {
    await links.inFlight.settled();
    domains.stop();
    abuse.stop();
    await lists.close();
    redirect.sweep.stop();
    await redirect.clicks.close();
    await events.stop();
    await links.keyUses.close();
    await base.ownInspector?.close();
    await redirect.images.close();
    await base.demoLog.close();
    await base.linkEvents.close();
    await base.mailer?.close();
  }

  return {
    ...base,
    domains: domains.domains,
    abuse,
    events,
    redirect,
    links,
    pages,
    close,
    bindLogger: log.bind,
  };
}

export type ServerServices = Awaited<ReturnType<typeof serverServices>>;
