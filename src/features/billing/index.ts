import { feature } from '../../kernel/feature.ts';

/**
 * Plans people can buy (docs/api.md §17): the pricing page, Settings → Billing, and Stripe Checkout,
 * portal and webhooks when Stripe is configured; otherwise the operator's contact.
 */
export const billingFeature = feature({
  name: 'billing',
  ports: ['billing', 'accounts', 'workspaces', 'links', 'audit'],
  http: async () => (await import('./http.ts')).billingHttp,
});
