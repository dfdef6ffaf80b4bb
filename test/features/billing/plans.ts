import type { PlanSettings } from '../../../src/core/entities.ts';
import type { Store } from '../../../src/core/ports/store.ts';

/**
 * The plans the billing tests sell: `free` (the sign-up plan: three links, no API access), `starter`
 * and `pro` through Stripe, `team` only through the operator.
 */
export const PLANS: PlanSettings[] = [
  {
    name: 'free',
    apiAccess: false,
    urlQuota: 3,
    rateLimitPerHour: 100,
    price: null,
    public: true,
    description: 'To try Snip.',
    stripePriceId: null,
  },
  {
    name: 'starter',
    apiAccess: true,
    urlQuota: 3,
    rateLimitPerHour: 500,
    price: { amount: 300, currency: 'EUR' },
    public: true,
    description: 'The API, a few links.',
    stripePriceId: 'price_starter',
  },
  {
    name: 'pro',
    apiAccess: true,
    urlQuota: 100,
    rateLimitPerHour: 1000,
    price: { amount: 900, currency: 'EUR' },
    public: true,
    description: 'For a small team.',
    stripePriceId: 'price_pro',
  },
  {
    name: 'team',
    apiAccess: true,
    urlQuota: 10_000,
    rateLimitPerHour: 10_000,
    price: { amount: 2900, currency: 'EUR' },
    public: true,
    description: 'Sold by the operator.',
    stripePriceId: null,
  },
];

export async function savePlans(store: Store): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  for (const plan of PLANS) ids[plan.name] = (await store.upsertPlan(plan)).id;
  return ids;
}

export const STRIPE_SECRETS = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_test' };
