import { joinPorts } from '../../core/ports/store.ts';
import type { FeatureHttp } from '../../kernel/feature.ts';
import { domainRoutes } from './api/domain-routes.ts';
import { DOMAIN_SCHEMAS } from './api/domain-schemas.ts';
import { domainPages } from './pages/domain-pages.ts';
import { tlsAllowedRoute } from './tls-route.ts';

/** /api/v1/domains, the TLS check of on-demand certificates, and the Domains page. */
export const domainHttp: FeatureHttp<'accounts' | 'workspaces' | 'keys'> = {
  schemas: DOMAIN_SCHEMAS,
  async api(v1, kernel, ports) {
    const domains = await kernel.use('domains');
    await v1.register(domainRoutes, { domains, store: joinPorts(ports), origin: kernel.origin });
  },
  async routes(app, kernel) {
    await app.register(tlsAllowedRoute, { domains: await kernel.use('domains') });
  },
  async pages(app, kernel) {
    await app.register(domainPages, { ...kernel.session, domains: await kernel.use('domains') });
  },
};
