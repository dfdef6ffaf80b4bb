import { joinPorts } from '../../../core/ports/store.ts';
import type { Given } from '../../../kernel/feature.ts';
import { domainOfCommand } from '../../domains/index.ts';
import type { LinkCliDeps } from './link-commands.ts';

/** The link commands' services: the store, the domains as the store has them, the API's editor and create service. */
export async function linkCliDeps({
  kernel,
  ports,
}: Given<'links' | 'groups' | 'accounts' | 'keys'>): Promise<LinkCliDeps> {
  const store = joinPorts(ports);
  return {
    store,
    baseUrl: kernel.config.baseUrl,
    origins: async () => (await kernel.use('domains')).registry,
    domainOf: (host) => domainOfCommand(kernel, host),
    withLinkEditor: async (use) => {
      await kernel.readyToAnnounce();
      return use((await kernel.use('links')).editor);
    },
    createIn: async (slug, draft) => {
      const workspace = await (await kernel.use('workspaces')).admin.bySlug(slug);
      const key = await store.findMainKey(workspace.id);
      await kernel.readyToAnnounce();
      const actor = { keyId: key?.id ?? 0, workspaceId: workspace.id, plan: workspace.plan };
      return (await kernel.use('links')).live.createAs(actor, { ...draft, clientAddress: '127.0.0.1' });
    },
  };
}
