import type { FastifyInstance } from 'fastify';
import type { BillingFeatureDeps } from './billing-deps.ts';

/** Settings → Billing, Stripe Checkout and portal, POST /webhooks/stripe (docs/api.md §17). */
export async function billingRoutes(_app: FastifyInstance, _deps: BillingFeatureDeps): Promise<void> {}
