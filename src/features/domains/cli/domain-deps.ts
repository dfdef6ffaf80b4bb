import type { Given } from '../../../kernel/feature.ts';
import type { DomainCliDeps } from './domain-commands.ts';

/** The domain commands' services: the store, and the domains with their changes announced to the servers. */
export async function domainCliDeps({ kernel }: Given): Promise<DomainCliDeps> {
  return {
    store: kernel.store,
    withDomains: async (use) => {
      await kernel.readyToAnnounce();
      return use(await kernel.use('domains'));
    },
  };
}
