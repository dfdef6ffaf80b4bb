import { feature } from '../../kernel/feature.ts';
import type { WebhookServices } from './services.ts';

/**
 * Webhooks and the event stream (docs/api.md §14): each workspace's endpoints, the events of links'
 * changes and clicks written to the outbox with them, and the dispatcher any instance runs to send
 * them, signed, to endpoints and to the operator's RabbitMQ.
 */
declare module '../../kernel/kernel.ts' {
  interface FeatureServices {
    webhooks: WebhookServices;
  }
}

export const webhooksFeature = feature({
  name: 'webhooks',
  ports: ['webhooks', 'workspaces', 'abuse', 'accounts', 'keys'],
  services: async (kernel, ports) => (await import('./services.ts')).webhooksOf(kernel, ports),
  on: {
    // The link.clicked events of a flush, written in its transaction.
    'clicks.flushing': (webhooks, events) => webhooks.clickNotices(events),
  },
  http: async () => (await import('./http.ts')).webhookHttp,
});
