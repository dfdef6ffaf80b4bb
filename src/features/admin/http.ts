import type { FeatureHttp } from '../../kernel/feature.ts';
import { adminPages } from './admin-routes.ts';

/** The operator console's pages. */
export const adminHttp: FeatureHttp = {
  async pages(app, kernel) {
    const abuse = await kernel.use('abuse');
    const { registry } = await kernel.use('domains');
    await app.register(adminPages, {
      ...kernel.session,
      abuse,
      store: kernel.store,
      origins: registry,
      isOwnHost: (host) => registry.served(host) !== undefined,
    });
  },
};
