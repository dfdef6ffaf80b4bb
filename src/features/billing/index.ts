import type { Feature } from '../../kernel/feature.ts';

/**
 * Plans people can buy (docs/api.md §17): the pricing page, Settings → Billing, and Stripe Checkout,
 * portal and webhooks when Stripe is configured; otherwise the operator's contact.
 */
export const billingFeature: Feature = {
  name: 'billing',
  http: async () => (await import('./http.ts')).billingHttp,
};
