import { resolveTxt } from 'node:dns/promises';
import { DOMAINS_CHANGED } from '../../core/link-key.ts';
import type { RecordAudit } from '../../core/moderation.ts';
import type { DomainStore } from '../../core/ports/domain-store.ts';
import type { LinkEvents } from '../../core/ports/shared-state.ts';
import { DomainRegistry } from './domain-registry.ts';
import { domainsService, type TxtResolver } from './domains.ts';

export { domainRoutes } from './api/domain-routes.ts';
export { DOMAIN_SCHEMAS } from './api/domain-schemas.ts';
export { DOMAIN_COMMANDS, DOMAIN_FLAGS, type DomainCliDeps } from './cli/domain-commands.ts';
export { domainJson } from './domain-json.ts';
export { type AddressedDomain, DOMAIN_PARAM } from './domain-param.ts';
export { DomainRegistry, type ServedDomain } from './domain-registry.ts';
export {
  CHALLENGE_LABEL,
  type DomainActor,
  type DomainAuditor,
  type DomainsService,
  type DomainView,
  domainsService,
  hostFrom,
  redirectTarget,
  type TxtResolver,
} from './domains.ts';
export { type DomainPageOptions, domainPages } from './pages/domain-pages.ts';
export { tlsAllowedRoute } from './tls-route.ts';

export interface DomainServicesOptions {
  baseUrl: URL;
  store: DomainStore;
  linkEvents: Pick<LinkEvents, 'changed'>;
  /** TXT look-ups; the system resolver by default. */
  resolveTxt?: TxtResolver;
  /** How often the domains are read again, besides each change heard (changes whose word was lost). */
  refreshMs: number;
  onRefreshError: (error: unknown) => void;
  /** The audit log the domain changes are recorded in; none by default. */
  audit?: RecordAudit;
}

/**
 * The domains of this process: the registry the redirect reads, the service every surface changes
 * them through, loaded now and again on every change heard and at a steady interval.
 */
export async function domainServices(options: DomainServicesOptions) {
  const registry = new DomainRegistry(options.baseUrl);
  const domains = domainsService({
    store: options.store,
    registry,
    resolveTxt: options.resolveTxt ?? resolveTxt,
    announce: () => options.linkEvents.changed(DOMAINS_CHANGED),
    audit: options.audit,
  });
  await domains.refresh();
  const reload = () => void domains.refresh().catch(options.onRefreshError);
  const timer = setInterval(reload, options.refreshMs);
  timer.unref();
  return { domains, registry, reload, stop: () => clearInterval(timer) };
}
