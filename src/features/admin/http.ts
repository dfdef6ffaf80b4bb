import { joinPorts } from '../../core/ports/store.ts';
import type { FeatureHttp } from '../../kernel/feature.ts';
import { adminPages } from './admin-routes.ts';

/** The operator console's pages. */
export const adminHttp: FeatureHttp<'abuse' | 'accounts' | 'console' | 'health' | 'workspaces'> = {
  async pages(app, kernel, ports) {
    const abuse = await kernel.use('abuse');
    const { registry } = await kernel.use('domains');
    const store = joinPorts(ports);
    await app.register(adminPages, {
      ...kernel.session,
      abuse,
      store,
      // Every workspace's count in one read (docs/api.md §21); the page picks its rows'.
      brokenLinks: () => store.brokenLinksPerWorkspace(),
      origins: registry,
      isOwnHost: (host) => registry.served(host) !== undefined,
    });
  },
};
