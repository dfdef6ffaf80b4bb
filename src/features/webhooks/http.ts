import { joinPorts } from '../../core/ports/store.ts';
import type { FeatureHttp } from '../../kernel/feature.ts';
import { webhookRoutes } from './api/webhook-routes.ts';
import { WEBHOOK_SCHEMAS } from './api/webhook-schemas.ts';
import { webhookPages } from './pages/webhook-pages.ts';

/** /api/v1/webhooks and the Webhooks page. */
export const webhookHttp: FeatureHttp<'accounts' | 'keys'> = {
  schemas: WEBHOOK_SCHEMAS,
  async api(v1, kernel, ports) {
    const { endpoints } = await kernel.use('webhooks');
    await v1.register(webhookRoutes, { endpoints, store: joinPorts(ports), origin: kernel.origin });
  },
  async pages(app, kernel) {
    const { endpoints } = await kernel.use('webhooks');
    await app.register(webhookPages, { ...kernel.session, endpoints });
  },
};
