import type { Account, Plan, Workspace } from '../../../core/entities.ts';

/** What the operator commands print (docs/api.md §6, §7.2): snake_case fields, RFC 3339 UTC times. */

export function planJson(plan: Plan) {
  return {
    name: plan.name,
    api_access: plan.apiAccess,
    url_quota: plan.urlQuota,
    rate_limit_per_hour: plan.rateLimitPerHour,
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
