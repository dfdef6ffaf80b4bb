import type { FastifyInstance } from 'fastify';
import type { BillingFeatureDeps } from './billing-deps.ts';

/** GET /pricing: the public plans side by side (docs/api.md §17). */
export async function pricingRoutes(_app: FastifyInstance, _deps: BillingFeatureDeps): Promise<void> {}
