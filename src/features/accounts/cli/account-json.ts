import type { Account, Plan } from '../../../core/entities.ts';

/** What the operator commands print (docs/api.md §6, §7.2): snake_case fields, RFC 3339 UTC times. */

export function planJson(plan: Plan) {
  return {
    name: plan.name,
    api_access: plan.apiAccess,
    url_quota: plan.urlQuota,
    rate_limit_per_hour: plan.rateLimitPerHour,
  };
}

export function accountJson(account: Account) {
  return { email: account.email, plan: account.plan.name, created_at: account.createdAt.toISOString() };
}
