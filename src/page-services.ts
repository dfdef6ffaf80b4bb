import { randomBytes } from 'node:crypto';
import packageJson from '../package.json' with { type: 'json' };
import { eventSinks } from './adapters/event-sinks.ts';
import type { Resolver } from './adapters/inspect/types.ts';
import { configuredProvider } from './adapters/oidc/oidc-client.ts';
import { stripeGateway } from './adapters/stripe/stripe-gateway.ts';
import type { Config } from './config.ts';
import type { MainKeys } from './core/key-authentication.ts';
import { DEFAULT_DOMAIN_ID } from './core/link-key.ts';
import type { RecordAudit } from './core/moderation.ts';
import type { IdentityProvider } from './core/ports/identity-provider.ts';
import type { KeyAuthenticator } from './core/ports/key-auth.ts';
import type { Mailer } from './core/ports/mailer.ts';
import type { WindowCounter } from './core/ports/shared-state.ts';
import type { Store } from './core/ports/store.ts';
import type { LinkOrigins } from './core/short-url.ts';
import { visitStats } from './features/analytics/index.ts';
import type { BillingFeatureDeps } from './features/billing/index.ts';
import { type CompatDeps, passwordKeysOf } from './features/compat/index.ts';
import type { DomainRegistry, DomainsService } from './features/domains/index.ts';
import { workspaceGroups } from './features/groups/index.ts';
import {
  type BulkLinksDeps,
  bulkLinks,
  dashboardService,
  type LinksApi,
  type LinksApiDeps,
  linksApi,
} from './features/links/index.ts';
import { type Metrics, webhookMetrics } from './features/ops/index.ts';
import { webhookServices } from './features/webhooks/index.ts';
import {
  apiAccess,
  invitationsService,
  membersService,
  oidcSignIn,
  type SignInService,
  signInService,
  workspaceAdmin,
} from './features/workspaces/index.ts';
import type { LateLogger } from './http/late-logger.ts';
import { signedFormTokens } from './web/session/csrf.ts';
import { sessionService } from './web/session/sessions.ts';
import type { WorkspaceDeps } from './web/session/workspace-pages.ts';

/**
 * The services behind the pages, built once by services.ts: sessions, signed-out forms, sign-in
 * (password and OIDC), people and their workspaces, API access, dashboard and stats.
 */

/** What the pages' services run on, as services.ts built it. */
export interface PageBase {
  store: Store;
  counter: WindowCounter;
  now: () => number;
  mailer: Mailer | undefined;
  log: LateLogger;
}

/** Every page service; the sign-up plan is checked here, so a server never starts without it. */
export async function pageServices(config: Config, base: PageBase) {
  const { store, counter, now } = base;
  const session: WorkspaceDeps = {
    sessions: sessionService({ store, ttlMs: config.sessionTtlHours * 3_600_000, now }),
    accounts: store,
    workspaces: store,
    policy: { secure: config.baseUrl.protocol === 'https:' },
    now,
    requireVerifiedEmail: config.emailVerification === 'required',
  };
  // Every instance signs the signed-out forms with the same key: the first to start stores it.
  const formKey = await store.secret('form-tokens', randomBytes(32));
  const { signup: mode, signupPlan: plan, signupBlockDisposable: blockDisposable } = config;
  const signup = { mode, plan, blockDisposable };
  const auth = signInService({
    store,
    counter,
    signup,
    limits: {
      perAccount: config.signinAccountLimit,
      perAddress: config.signinAddressLimit,
      windowMs: config.signinWindowSeconds * 1000,
    },
    now,
  });
  await auth.checkSignupPlan();
  // What workspace admins change is recorded in the audit log; a log that cannot be written is logged.
  const auditError = base.log.error('the audit log could not be written');
  const audit: RecordAudit = (entry) => store.addAudit(entry).catch(auditError);
  const provider: IdentityProvider | undefined = configuredProvider(config.oidc, config.baseUrl);
  return {
    oidc: provider && oidcSignIn({ provider, store, signup }),
    session,
    forms: signedFormTokens(formKey, now),
    auth,
    apiAccess: apiAccess(store, audit),
    members: membersService(store, audit),
    invitations: invitationsService({
      store,
      baseUrl: config.baseUrl,
      mailer: base.mailer,
      onMailError: base.log.error('an invitation could not be mailed'),
      now,
      audit,
    }),
    workspaces: workspaceAdmin(store, audit),
    groups: workspaceGroups(store),
    dashboard: dashboardService({ store, counter, now }),
    stats: visitStats({ store, now, retentionDays: config.analyticsRetentionDays }),
  };
}

/** Webhooks and the event stream (docs/api.md §14): endpoints, the outbox's dispatcher, events made. */
export function eventServices(
  config: Config,
  base: PageBase & { metrics: Metrics },
  origins: LinkOrigins,
  resolve?: Resolver,
) {
  let counted: ReturnType<typeof webhookMetrics> | undefined;
  const events = webhookServices({
    store: base.store,
    settings: config.webhooks,
    sinks: eventSinks({
      allowPrivate: config.allowPrivateTargets,
      amqpUrl: config.webhooks.amqpUrl,
      resolve,
      onStreamError: base.log.error('the event stream failed; its events wait in the outbox'),
    }),
    origins,
    audit: (entry) => base.store.addAudit(entry).catch(base.log.error('the audit log could not be written')),
    mail: base.mailer && { mailer: base.mailer, baseUrl: config.baseUrl },
    now: base.now,
    onAttempt: (sink, attempt) => counted?.(sink, attempt),
    onError: (what) => base.log.error(what),
  });
  counted = webhookMetrics(base.metrics, events.gauge);
  return events;
}

export type EventServices = ReturnType<typeof eventServices>;

/** What the compatibility APIs are given of the server's services. */
export interface CompatParts {
  store: Store;
  now: () => number;
  domains: Pick<DomainsService, 'addressed' | 'choices'> & {
    registry: LinkOrigins & Pick<DomainRegistry, 'served'>;
  };
  pages: { auth: Pick<SignInService, 'signIn'> };
  links: { keys: KeyAuthenticator; workspaceKeys: MainKeys };
}

/** What the compatibility APIs answer with (docs/api.md §15): Snip's keys, links, tags, visits and domains. */
export function compatDeps(config: Config, services: CompatParts, links: LinksApi): CompatDeps {
  const { store, domains } = services;
  const personalOf = async (userId: number) =>
    (await store.workspacesOf(userId)).find(({ workspace }) => workspace.personalOf === userId)?.workspace.id;
  return {
    keys: services.links.keys,
    passwordKeys: passwordKeysOf(services.pages.auth.signIn, personalOf, services.links.workspaceKeys),
    links,
    store,
    origins: domains.registry,
    domainOf: domains.addressed,
    domainChoices: domains.choices,
    redirectsOf: (host) => {
      const served = domains.registry.served(host);
      return { root: served?.rootRedirect ?? null, notFound: served?.notFoundRedirect ?? null };
    },
    now: services.now,
    baseUrl: config.baseUrl,
    version: packageJson.version,
    retentionDays: config.analyticsRetentionDays,
  };
}

/** What `/` of a host answers: its domain's root redirect, the landing page on the default domain, else nothing. */
export function rootOfHost(registry: Pick<DomainRegistry, 'served'>) {
  return (host: string | undefined): { redirect: string } | 'landing' | 'none' => {
    const domain = registry.served(host);
    if (domain?.rootRedirect) return { redirect: domain.rootRedirect };
    return domain?.id === DEFAULT_DOMAIN_ID ? 'landing' : 'none';
  };
}

/** The links of /api/v1 as resources, which the compatibility APIs answer with too, one by one and in bulk. */
export function linkApis(deps: LinksApiDeps & Pick<BulkLinksDeps, 'counter'>) {
  const api = linksApi(deps);
  return { api, bulk: bulkLinks({ ...deps, api }) };
}

export type LinkApis = ReturnType<typeof linkApis>;

/** What the pricing page and billing are built on (docs/api.md §17): Stripe when it is configured. */
export function billingDeps(
  config: Config,
  parts: { store: Store; session: WorkspaceDeps; frameOf: BillingFeatureDeps['frameOf'] },
): BillingFeatureDeps {
  const { stripe } = config.billing;
  return {
    ...parts.session,
    store: parts.store,
    settings: config.billing,
    payments: stripe && stripeGateway(stripe),
    freePlan: config.signupPlan,
    mailFrom: config.mail?.from,
    baseUrl: config.baseUrl,
    signupMode: config.signup,
    frameOf: parts.frameOf,
  };
}
