import type { FastifyInstance } from 'fastify';
import type { BillingFeatureDeps } from './billing-deps.ts';
import { billingRoutes } from './billing-routes.ts';
import { pricingRoutes } from './pricing-routes.ts';

/**
 * Plans people can buy (docs/api.md §17): the pricing page, Settings → Billing, and Stripe Checkout,
 * portal and webhooks when Stripe is configured; otherwise the operator's contact.
 */
export type { BillingFeatureDeps } from './billing-deps.ts';

export async function billingFeature(app: FastifyInstance, deps: BillingFeatureDeps): Promise<void> {
  await app.register(pricingRoutes, deps);
  await app.register(billingRoutes, deps);
}
