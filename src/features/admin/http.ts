import { joinPorts } from '../../core/ports/store.ts';
import type { FeatureHttp } from '../../kernel/feature.ts';
import { adminPages } from './admin-routes.ts';

/** The operator console's pages. */
export const adminHttp: FeatureHttp<'abuse' | 'accounts' | 'console' | 'workspaces'> = {
  async pages(app, kernel, ports) {
    const abuse = await kernel.use('abuse');
    const { registry } = await kernel.use('domains');
    await app.register(adminPages, {
      ...kernel.session,
      abuse,
      store: joinPorts(ports),
      origins: registry,
      isOwnHost: (host) => registry.served(host) !== undefined,
    });
  },
};
