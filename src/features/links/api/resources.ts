import type { Group, Link } from '../../../core/entities.ts';
import type { GroupStore, LinkStore } from '../../../core/ports/store.ts';
import { type LinkOrigins, qrCodeUrl, shortUrl } from '../../../core/short-url.ts';
import type { LinkResource } from './link-schemas.ts';

/** Links as the API shows them (docs/api.md §7.2): snake_case, RFC 3339 UTC times. */

export function linkResource(
  origins: LinkOrigins,
  link: Link,
  group: Group | undefined,
  tags: readonly string[],
  /** Its former codes, oldest first; left out where they are not read (webhook payloads). */
  aliases?: readonly string[],
): LinkResource {
  const resource: LinkResource = {
    short_code: link.code,
    short_url: shortUrl(origins, link),
    domain: origins.hostOf(link.domainId),
    long_url: link.longUrl,
    qr_code: qrCodeUrl(origins, link),
    title: link.title,
    group: group ? { id: group.id, api_id: group.apiId, name: group.name } : null,
    tags: [...tags],
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
    expires_at: link.expiresAt?.toISOString() ?? null,
    max_clicks: link.maxClicks,
    has_password: link.passwordHash !== null,
    rules: link.rules.map((rule) => ({ if: { ...rule.if }, url: rule.url })),
    disabled: link.disabled ? { reason: link.disabled.reason, at: link.disabled.at.toISOString() } : null,
    clicks: link.clicks,
    unique_visitors: link.uniqueVisitors,
    bot_hits: link.botHits,
    archived: link.archived,
    public_stats: link.publicStats,
    last_clicked_at: link.lastClickedAt?.toISOString() ?? null,
    forward_query: link.forwardQuery,
    preview: link.preview && { ...link.preview },
    ...conversionResource(link),
    variants: link.test?.variants.map(({ url, weight }) => ({ url, weight })) ?? [],
    test_ends_at: link.test?.endsAt?.toISOString() ?? null,
    health: healthResource(link),
  };
  if (aliases) resource.aliases = [...aliases];
  return resource;
}

export type ResourceStore = Pick<GroupStore & LinkStore, 'listGroups' | 'tagsOf'> &
  Partial<Pick<LinkStore, 'aliasesOf'>>;

/** The groups of an account by ID, read once for a page of links. */
export async function groupsById(store: ResourceStore, workspaceId: number): Promise<Map<number, Group>> {
  return new Map((await store.listGroups(workspaceId)).map((group) => [group.id, group]));
}

/** Links of one account as resources, their groups and tags read once for all of them. */
export async function linkResources(
  store: ResourceStore,
  origins: LinkOrigins,
  workspaceId: number,
  links: readonly Link[],
): Promise<LinkResource[]> {
  if (links.length === 0) return [];
  const ids = links.map((link) => link.id);
  const [groups, tags, aliases] = await Promise.all([
    groupsById(store, workspaceId),
    store.tagsOf(ids),
    store.aliasesOf?.(ids),
  ]);
  return links.map((link) =>
    linkResource(
      origins,
      link,
      link.groupId === null ? undefined : groups.get(link.groupId),
      tags.get(link.id) ?? [],
      aliases && (aliases.get(link.id) ?? []),
    ),
  );
}

/** A link's conversions as the resource shows them (docs/api.md §20): kept apart from the schemas, which the command line's usage must not load. */
function conversionResource(link: Link) {
  return {
    track_conversions: link.tracksConversions,
    leads: link.leads,
    sales: link.sales,
    revenue: { ...link.revenue },
  };
}

/** What the resource shows of a link's health. */
export function healthResource({ health }: Pick<Link, 'health'>) {
  return {
    state: health.state,
    checked_at: health.checkedAt?.toISOString() ?? null,
    code: health.code,
    status: health.status,
    since: health.since?.toISOString() ?? null,
  };
}
