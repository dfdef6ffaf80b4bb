import type { Account, Plan, Workspace } from '../../../core/entities.ts';

/** What the operator commands print (docs/api.md §6, §7.2): snake_case fields, RFC 3339 UTC times. */

/** `price` is a month's price in minor units of its currency, or null for a free plan (docs/api.md §17). */
export function planJson(plan: Plan) {
  return {
    name: plan.name,
    api_access: plan.apiAccess,
    url_quota: plan.urlQuota,
    rate_limit_per_hour: plan.rateLimitPerHour,
    price: plan.price ? { amount: plan.price.amount, currency: plan.price.currency } : null,
    public: plan.public ?? false,
    description: plan.description ?? '',
    stripe_price: plan.stripePriceId ?? null,
  };
}

export function accountJson({ user, workspace }: Account) {
  return {
    email: user.email,
    plan: workspace.plan.name,
    workspace: workspace.slug,
    created_at: user.createdAt.toISOString(),
  };
}

export function workspaceJson(workspace: Workspace) {
  return {
    id: workspace.id,
    slug: workspace.slug,
    name: workspace.name,
    plan: workspace.plan.name,
    personal: workspace.personalOf !== null,
    created_at: workspace.createdAt.toISOString(),
  };
}
