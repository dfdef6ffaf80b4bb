import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { DemoLog } from './core/ports/shared-state.ts';
import { ABUSE_SCHEMAS, auditRoutes, reportApiRoutes, reportPages } from './features/abuse/index.ts';
import { adminPages } from './features/admin/index.ts';
import { type ClickBuffer, STATS_SCHEMAS, statsApiRoutes, statsPages } from './features/analytics/index.ts';
import { billingFeature } from './features/billing/index.ts';
import { compatFeature } from './features/compat/index.ts';
import { DEMO_ASSETS, demoFeature } from './features/demo/index.ts';
import { DOMAIN_SCHEMAS, domainPages, domainRoutes, tlsAllowedRoute } from './features/domains/index.ts';
import { GROUP_SCHEMAS, groupRoutes, groupsApi } from './features/groups/index.ts';
import {
  type BulkLinks,
  bulkRoutes,
  CREATE_SCHEMAS,
  createEndpoint,
  LINK_SCHEMAS,
  linkPages,
  linkRoutes,
} from './features/links/index.ts';
import {
  collectOpenapi,
  countRequests,
  OPS_ASSETS,
  observeRuntime,
  opsFeature,
} from './features/ops/index.ts';
import {
  type LinkCache,
  PASSWORD_TRIES,
  qrApiRoutes,
  REDIRECT_ROUTES,
  redirectFeature,
} from './features/redirect/index.ts';
import { WEBHOOK_SCHEMAS, webhookPages, webhookRoutes } from './features/webhooks/index.ts';
import {
  AccountSchema,
  accountApiRoutes,
  accountPages,
  type KeyUses,
  MEMBER_SCHEMAS,
  memberRoutes,
  WorkspaceSchema,
} from './features/workspaces/index.ts';
import { logAccess } from './http/access-log.ts';
import { registerBodyParsers } from './http/body-parsers.ts';
import { refuseUnreadableInput } from './http/edge-input.ts';
import { managementApi } from './http/management-api.ts';
import { ProblemSchema } from './http/openapi-parts.ts';
import { addSecurityHeaders } from './http/security-headers.ts';
import { serverOptions } from './http/server-options.ts';
import { billingDeps, compatDeps, type LinkApis, linkApis, rootOfHost } from './page-services.ts';
import { type AppDeps, type ServerServices, serverServices } from './services.ts';
import { assetRoutes, WEB_ASSETS } from './web/assets.ts';
import { frameOfSession } from './web/session/handlers.ts';

export type { AppDeps } from './services.ts';

/**
 * The HTTP server: the services (services.ts) behind each feature's routes, the redirect's hot path
 * in front of the router.
 */

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

/** The server itself, the redirect's hot path answering below the router; it never listens here. */
function server(config: Config, deps: AppDeps, services: ServerServices): FastifyInstance {
  const { redirect } = services;
  let debugRedirects = false;
  const app: FastifyInstance = Fastify(
    serverOptions({
      trustProxy: config.trustProxy,
      logger: deps.logger,
      maxConnections: config.maxConnections,
      beforeRouter: (req, res) => {
        if (!redirect.fast(req, res)) return false;
        redirect.counted.answeredBelowRouter(req.method as string, res.statusCode);
        if (debugRedirects)
          app.log.debug({ method: req.method, route: '/:code', status: res.statusCode }, 'request');
        return true;
      },
    }),
  );
  services.bindLogger(app.log);
  debugRedirects = ['debug', 'trace'].includes(app.log.level);
  addSecurityHeaders(app, { https: config.baseUrl.protocol === 'https:' });
  countRequests(app, services.metrics);
  logAccess(app, { quiet: REDIRECT_ROUTES });
  observeRuntime(services.metrics, { clicks: redirect.clicks, cache: redirect.cache });
  app.addHook('onClose', services.close);
  app.decorate('clicks', redirect.clicks);
  app.decorate('keyUses', services.links.keyUses);
  app.decorate('retention', { sweep: redirect.sweep.sweep });
  app.decorate('linkCache', redirect.cache);
  app.decorate('demoLog', services.demoLog);
  return app;
}

/** /api/v1: every resource behind the account's keys (docs/api.md §7). */
async function managementRoutes(
  app: FastifyInstance,
  config: Config,
  services: ServerServices,
  { api, bulk }: LinkApis,
) {
  const { store, links, pages, now } = services;
  const origin = config.baseUrl.href.replace(/\/$/, '');
  const stats = {
    store,
    now,
    retentionDays: config.analyticsRetentionDays,
    domainOf: services.domains.addressed,
  };
  await app.register(
    async (v1) => {
      managementApi(v1, links.keys);
      await v1.register(bulkRoutes, { bulk });
      await v1.register(linkRoutes, { api, origin });
      const qr = { store, images: services.redirect.images, origins: services.domains.registry };
      await v1.register(qrApiRoutes, { ...qr, domainOf: services.domains.addressed });
      await v1.register(statsApiRoutes, stats);
      await v1.register(groupRoutes, { api: groupsApi({ store, groups: pages.groups }), origin });
      await v1.register(accountApiRoutes, { store });
      await v1.register(domainRoutes, { domains: services.domains, store, origin });
      await v1.register(reportApiRoutes, { reports: services.abuse.reports });
      await v1.register(auditRoutes, {
        audit: services.abuse.audit,
        cursors: links.cursors,
        slugOf: async (id) => (await store.findWorkspaceById(id))?.slug,
      });
      await v1.register(webhookRoutes, { endpoints: services.events.endpoints, store, origin });
      await v1.register(memberRoutes, {
        members: pages.members,
        invitations: pages.invitations,
        store,
        origin,
      });
    },
    { prefix: '/api/v1' },
  );
}

/** Every page behind the session, and the pages' own files. */
async function signedInPages(
  app: FastifyInstance,
  config: Config,
  services: ServerServices,
  bulk: BulkLinks,
) {
  const { pages, links } = services;
  await app.register(accountPages, {
    ...pages.session,
    auth: pages.auth,
    forms: pages.forms,
    keys: pages.apiAccess,
    members: pages.members,
    invitations: pages.invitations,
    admin: pages.workspaces,
    signupMode: config.signup,
    store: services.store,
    counter: services.counter,
    baseUrl: config.baseUrl,
    mailer: services.mailer,
    emailVerification: config.emailVerification,
    oidc: config.oidc,
    oidcSignIn: pages.oidc,
  });
  await app.register(linkPages, {
    ...pages.session,
    dashboard: pages.dashboard,
    groups: pages.groups,
    createLinkFor: links.live.forWorkspace,
    bulk,
    editor: links.editor,
    origins: services.domains.registry,
    domainOf: services.domains.addressed,
    domainChoices: services.domains.choices,
  });
  await app.register(statsPages, {
    ...pages.session,
    stats: pages.stats,
    domainOf: services.domains.addressed,
    origins: services.domains.registry,
    clicks: services.store,
  });
  await app.register(domainPages, { ...pages.session, domains: services.domains });
  await app.register(webhookPages, { ...pages.session, endpoints: services.events.endpoints });
  await app.register(adminPages, {
    ...pages.session,
    abuse: services.abuse,
    store: services.store,
    origins: services.domains.registry,
    isOwnHost: (host) => services.domains.registry.served(host) !== undefined,
  });
  await app.register(reportPages, {
    reports: services.abuse.reports,
    forms: pages.forms,
    policy: pages.session.policy,
  });
  await app.register(assetRoutes, { files: { ...WEB_ASSETS, ...DEMO_ASSETS, ...OPS_ASSETS } });
}

/** Builds the whole application without listening; tests call inject() on it. */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const services = await serverServices(config, deps);
  const { redirect, links, pages, metrics, now } = services;
  const app = server(config, deps, services);
  const frameOf = frameOfSession(pages.session);
  const envelope = { ...config, origins: services.domains.registry, now };
  const outcome = (endpoint: string) => (error: string) => metrics.createOutcomes.inc({ endpoint, error });

  await registerBodyParsers(app);
  refuseUnreadableInput(app);
  await app.register(cookie);
  const schemas = [
    ...CREATE_SCHEMAS,
    ProblemSchema,
    ...LINK_SCHEMAS,
    ...GROUP_SCHEMAS,
    AccountSchema,
    WorkspaceSchema,
    ...MEMBER_SCHEMAS,
    ...DOMAIN_SCHEMAS,
    ...ABUSE_SCHEMAS,
    ...WEBHOOK_SCHEMAS,
  ];
  for (const schema of [...schemas, ...STATS_SCHEMAS]) app.addSchema(schema);
  await collectOpenapi(app, config.baseUrl);
  await app.register(createEndpoint, { live: links.live, envelope, onOutcome: outcome('/create') });
  await app.register(demoFeature, {
    demo: links.demo,
    envelope,
    onOutcome: outcome('/demo/create'),
    demoLog: services.demoLog,
    demoKey: config.demoApiKey,
    heartbeatMs: config.sseHeartbeatSeconds * 1000,
    maxConnections: config.maxConnections,
    streamSeconds: config.sseMaxSeconds,
    now,
    frameOf,
    rootOf: rootOfHost(services.domains.registry),
  });
  const apis = linkApis({
    ...services,
    createLinkAs: links.live.createAs,
    editor: links.editor,
    cursors: links.cursors,
    origins: services.domains.registry,
    domainOf: services.domains.addressed,
  });
  await managementRoutes(app, config, services, apis);
  await app.register(compatFeature, compatDeps(config, services, apis.api));
  await app.register(tlsAllowedRoute, { domains: services.domains });
  const store = services.store;
  await app.register(billingFeature, billingDeps(config, { store, session: pages.session, frameOf }));
  await signedInPages(app, config, services, apis.bulk);
  await redirectFeature(app, {
    cache: redirect.cache,
    images: redirect.images,
    answer: redirect.answer,
    counter: services.counter,
    redirectStatus: config.redirectStatus,
    notFoundLimit: config.notFoundLimit,
    baseUrl: config.baseUrl,
    now,
    limits: redirect.limits,
    countries: redirect.countries,
    trustCountryHeaders: config.trustProxy !== false,
    passwordTries: PASSWORD_TRIES,
    domainOf: (host) => services.domains.registry.served(host),
    origins: services.domains.registry,
    screen: services.screen,
  });
  await app.register(opsFeature, {
    checks: [{ name: 'store', check: () => services.store.ping() }, ...(deps.readinessChecks ?? [])],
    registry: metrics.registry,
    timeoutMs: config.storeTimeoutMs,
    frameOf,
  });
  return app;
}
