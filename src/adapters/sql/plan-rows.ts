import type { PlanSettings } from '../../core/entities.ts';
import type { Param } from './script.ts';

/** A plan as it is written (both dialects; `?` placeholders, which the PostgreSQL runner numbers). */

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

/**
 * A plan's row in UPSERT_COLUMNS' order: its VALUES tuple and parameters. api_access, BOOLEAN in
 * both schemas, is written as a `true`/`false` literal, which each dialect stores as its boolean.
 */
export function planRow(plan: PlanSettings): { tuple: string; params: Param[] } {
  return {
    tuple: `(?, ${plan.apiAccess ? 'true' : 'false'}, ?, ?, ?, ?, ?, ?, ?)`,
    params: [
      plan.name,
      plan.urlQuota,
      plan.rateLimitPerHour,
      plan.price?.amount ?? null,
      plan.price?.currency ?? null,
      plan.public ? 1 : 0,
      plan.description ?? '',
      plan.stripePriceId ?? null,
    ],
  };
}
