import type { Account, Plan } from '../../core/entities.ts';
import { shortUrl } from '../../core/short-url.ts';
import type { LinkDetails } from './operator-links.ts';

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

/** A link as `link show`, `link list` and `link edit` print it; its group by API identifier. */
export function linkJson({ link, group, tags }: LinkDetails, baseUrl: URL) {
  return {
    short_code: link.code,
    short_url: shortUrl(baseUrl, link.code),
    long_url: link.longUrl,
    title: link.title,
    group: group?.apiId ?? null,
    tags,
    clicks: link.clicks,
    bot_hits: link.botHits,
    expires_at: link.expiresAt?.toISOString() ?? null,
    max_clicks: link.maxClicks,
    has_password: link.passwordHash !== null,
    rules: link.rules,
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
  };
}
