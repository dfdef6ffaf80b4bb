import { joinPorts } from '../../../core/ports/store.ts';
import type { Given } from '../../../kernel/feature.ts';
import { domainOfCommand } from '../../domains/index.ts';
import type { LinkCliDeps } from './link-commands.ts';

/** The link commands' services: the store, the domains as the store has them, the API's editor. */
export async function linkCliDeps({
  kernel,
  ports,
}: Given<'links' | 'groups' | 'accounts'>): Promise<LinkCliDeps> {
  return {
    store: joinPorts(ports),
    baseUrl: kernel.config.baseUrl,
    origins: async () => (await kernel.use('domains')).registry,
    domainOf: (host) => domainOfCommand(kernel, host),
    withLinkEditor: async (use) => {
      await kernel.readyToAnnounce();
      return use((await kernel.use('links')).editor);
    },
  };
}
