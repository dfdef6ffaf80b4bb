import type { PlanSettings } from '../../core/entities.ts';

/** A plan as it is written (both dialects; `?` placeholders, which the PostgreSQL adapter numbers). */

export const UPSERT_COLUMNS =
  'name, api_access, url_quota, rate_limit_per_hour, price_amount, price_currency, public, description, stripe_price_id';

export const UPSERT_SETS = [
  'api_access',
  'url_quota',
  'rate_limit_per_hour',
  'price_amount',
  'price_currency',
  'public',
  'description',
  'stripe_price_id',
]
  .map((column) => `${column} = excluded.${column}`)
  .join(', ');

/** The values of UPSERT_COLUMNS, in order (a boolean as the dialect takes it). */
export function planValues(plan: PlanSettings): Array<string | number | boolean | null> {
  return [
    plan.name,
    plan.apiAccess,
    plan.urlQuota,
    plan.rateLimitPerHour,
    plan.price?.amount ?? null,
    plan.price?.currency ?? null,
    plan.public ? 1 : 0,
    plan.description ?? '',
    plan.stripePriceId ?? null,
  ];
}
