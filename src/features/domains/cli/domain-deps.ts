import { joinPorts } from '../../../core/ports/store.ts';
import type { Given } from '../../../kernel/feature.ts';
import type { DomainCliDeps } from './domain-commands.ts';

/** The domain commands' services: the store, and the domains with their changes announced to the servers. */
export async function domainCliDeps({
  kernel,
  ports,
}: Given<'domains' | 'accounts' | 'workspaces'>): Promise<DomainCliDeps> {
  return {
    store: joinPorts(ports),
    withDomains: async (use) => {
      await kernel.readyToAnnounce();
      return use(await kernel.use('domains'));
    },
  };
}
