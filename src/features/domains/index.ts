import { feature } from '../../kernel/feature.ts';
import type { Kernel } from '../../kernel/kernel.ts';
import { lazyCommands, withDeps } from '../../terminal/command.ts';
import { DOMAIN_FLAGS, DOMAIN_USAGE } from './cli/domain-usage.ts';
import type { DomainsService } from './domains.ts';

/**
 * Domains (docs/api.md §12): the hosts short links are served on, each workspace's own and the
 * operator's shared ones; verified by a TXT record; /api/v1/domains, the Domains page and
 * `snip domain …`.
 */
declare module '../../kernel/kernel.ts' {
  interface FeatureServices {
    domains: DomainsService;
  }
}

export const domainsFeature = feature({
  name: 'domains',
  ports: ['domains', 'accounts', 'workspaces', 'keys'],
  services: async (kernel, ports) => (await import('./services.ts')).domainServices(kernel, ports),
  http: async () => (await import('./http.ts')).domainHttp,
  cli: {
    flags: DOMAIN_FLAGS,
    commands: lazyCommands(DOMAIN_USAGE, async () =>
      withDeps(
        (await import('./cli/domain-commands.ts')).DOMAIN_COMMANDS,
        (await import('./cli/domain-deps.ts')).domainCliDeps,
      ),
    ),
  },
});

export type { AddressedDomain } from './domain-param.ts';
export type { DomainRegistry, ServedDomain } from './domain-registry.ts';
export type { DomainActor, DomainAuditor, DomainsService, DomainView, TxtResolver } from './domains.ts';

/** The domain a command's `--domain` names (317 for none such); the default domain without it. */
export async function domainOfCommand(kernel: Kernel, host: string | undefined): Promise<number> {
  return host === undefined ? 0 : (await kernel.use('domains')).registry.idOf(host);
}
