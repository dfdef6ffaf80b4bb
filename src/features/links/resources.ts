import type { Group, Link } from '../../core/entities.ts';
import { qrCodeUrl, shortUrl } from '../../core/short-url.ts';
import type { GroupResource, LinkResource } from './schemas.ts';

/** Links and groups as the API shows them (docs/api.md §7.2): snake_case, RFC 3339 UTC times. */

export function linkResource(
  baseUrl: URL,
  link: Link,
  group: Group | undefined,
  tags: readonly string[],
): LinkResource {
  return {
    short_code: link.code,
    short_url: shortUrl(baseUrl, link.code),
    long_url: link.longUrl,
    qr_code: qrCodeUrl(baseUrl, link.code),
    title: link.title,
    group: group ? { id: group.id, api_id: group.apiId, name: group.name } : null,
    tags: [...tags],
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
    expires_at: link.expiresAt?.toISOString() ?? null,
    max_clicks: link.maxClicks,
    has_password: link.passwordHash !== null,
    rules: link.rules.map((rule) => ({ if: { ...rule.if }, url: rule.url })),
    clicks: link.clicks,
    unique_visitors: link.uniqueVisitors,
    bot_hits: link.botHits,
  };
}

export function groupResource(group: Group, links: number): GroupResource {
  return { id: group.id, api_id: group.apiId, name: group.name, links };
}
