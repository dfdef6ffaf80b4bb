import { type LinkOrigins, shortUrl } from '../../../core/short-url.ts';
import type { LinkDetails } from './link-operations.ts';

/** A link as `link show`, `link list`, `link create` and `link edit` print it; its group by API identifier. */
export function linkJson({ link, group, tags, aliases }: LinkDetails, origins: LinkOrigins) {
  return {
    short_code: link.code,
    short_url: shortUrl(origins, link),
    domain: origins.hostOf(link.domainId),
    long_url: link.longUrl,
    title: link.title,
    group: group?.apiId ?? null,
    tags,
    aliases,
    clicks: link.clicks,
    bot_hits: link.botHits,
    expires_at: link.expiresAt?.toISOString() ?? null,
    max_clicks: link.maxClicks,
    has_password: link.passwordHash !== null,
    rules: link.rules,
    public_stats: link.publicStats,
    variants: link.test?.variants ?? [],
    test_ends_at: link.test?.endsAt?.toISOString() ?? null,
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
  };
}
