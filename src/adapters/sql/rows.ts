/**
 * Row shapes as both adapters select them, and their mapping to the port types. Only the drivers'
 * value types differ, and are evened out here: a boolean is 0/1 on SQLite and true/false on
 * PostgreSQL; a hash is a Uint8Array or a Buffer; integers are numbers on both (the PostgreSQL
 * pool parses int8 into numbers).
 */

import { isRole } from '../../core/authorization.ts';
import type {
  ApiKeyInfo,
  Group,
  KeyOwner,
  Link,
  LinkPreview,
  NewLink,
  Plan,
  SessionRecord,
} from '../../core/entities.ts';
import type { AbTest, LinkVariant } from '../../core/link-variants.ts';
import type { RedirectLink } from '../../core/ports/link-code-store.ts';
import { scopesFrom } from '../../core/scopes.ts';
import type { LinkRule } from '../../core/targeting.ts';
import { healthOf } from './health-rows.ts';

export type Row = Record<string, unknown>;

export const truthy = (value: unknown): boolean => value === true || value === 1;

/** An epoch-ms column (a bigint may arrive as text) as a Date, or null. */
export const dateOrNull = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(Number(value));

function buffer(value: unknown): Buffer {
  const bytes = value as Uint8Array;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export const PLAN_COLUMNS =
  'id, name, api_access, url_quota, rate_limit_per_hour, price_amount, price_currency, public, description, stripe_price_id';

/** Plan columns aliased `plan_*`, for joins with accounts or keys (plans aliased `p`). */
export const JOINED_PLAN_COLUMNS = PLAN_COLUMNS.split(', ')
  .map((column) => `p.${column} AS plan_${column}`)
  .join(', ');

/**
 * What the redirect reads of a link (RedirectLink, core/ports/link-code-store.ts): an embedded
 * store's cold look-up selects these alone, ~1/3 of the cost of every column (docs/adr/053).
 */
export const REDIRECT_LINK_COLUMNS =
  'id, code, domain_id, workspace_id, long_url, title, clicks, expires_at, max_clicks, limit_used, password_hash, ' +
  'rules, disabled_at, disabled_reason, forward_query, preview, variants, test_started_at, test_ends_at, ' +
  // Conversions (docs/api.md §20): the link's own choice, else its workspace's.
  'COALESCE(track_conversions, (SELECT w.track_conversions FROM workspaces w ' +
  'WHERE w.id = links.workspace_id)) AS tracks_conversions';

export const LINK_COLUMNS =
  `${REDIRECT_LINK_COLUMNS}, group_id, normalized_url, bot_hits, unique_visitors, created_at, updated_at, ` +
  'archived, last_clicked_at, public_stats, track_conversions, leads, sales, revenue, ' +
  // Health (docs/api.md §21): the latest check, and the last change of state.
  'health_state, health_checked_at, health_code, health_status, health_failures, health_since, ' +
  'health_cause_code, health_cause_status';

/** The columns a new link is inserted with, in the order of `newLinkValues`. */
export const NEW_LINK_COLUMNS =
  'code, workspace_id, group_id, long_url, normalized_url, url_hash, title, created_at, ' +
  'expires_at, max_clicks, password_hash, rules, domain_id, forward_query, preview, public_stats, ' +
  'track_conversions, variants, test_started_at, test_ends_at';

/** Placeholders for NEW_LINK_COLUMNS. */
export const NEW_LINK_PLACEHOLDERS = (mark: (n: number) => string) =>
  Array.from({ length: 20 }, (_, i) => mark(i + 1)).join(', ');

export function newLinkValues(link: NewLink, createdAt: number): Array<string | number | null> {
  const guards = link.guards ?? {};
  return [
    link.code,
    link.workspaceId,
    link.groupId,
    link.longUrl,
    link.normalizedUrl,
    link.urlHash,
    link.title,
    createdAt,
    guards.expiresAt?.getTime() ?? null,
    guards.maxClicks ?? null,
    guards.passwordHash ?? null,
    rulesText(guards.rules),
    link.domainId,
    guards.forwardQuery ? 1 : 0,
    previewText(guards.preview),
    link.publicStats ? 1 : 0,
    trackingValue(guards.trackConversions),
    ...testValues(guards.test),
  ];
}

/** A link's own conversion tracking as stored: NULL leaves it to the workspace. */
export function trackingValue(track: boolean | null | undefined): number | null {
  return track === undefined || track === null ? null : track ? 1 : 0;
}

/** A test as stored: its variants' JSON, its start and its end (NULL for none). */
export function testValues(test: AbTest | null | undefined): [string | null, number | null, number | null] {
  if (!test) return [null, null, null];
  return [JSON.stringify(test.variants), test.startedAt.getTime(), test.endsAt?.getTime() ?? null];
}

function testOf(row: Row): AbTest | null {
  if (typeof row.variants !== 'string' || row.variants === '') return null;
  return {
    variants: JSON.parse(row.variants) as LinkVariant[],
    startedAt: new Date(Number(row.test_started_at ?? 0)),
    endsAt: dateOrNull(row.test_ends_at),
  };
}

/** Rules as stored: JSON, or NULL for none. */
export function rulesText(rules: readonly LinkRule[] | undefined): string | null {
  return rules && rules.length > 0 ? JSON.stringify(rules) : null;
}

/** A preview as stored: JSON, or NULL for none. */
export function previewText(preview: LinkPreview | null | undefined): string | null {
  return preview ? JSON.stringify(preview) : null;
}

function previewOf(text: unknown): LinkPreview | null {
  if (typeof text !== 'string' || text === '') return null;
  return JSON.parse(text) as LinkPreview;
}

function rulesOf(text: unknown): LinkRule[] {
  if (typeof text !== 'string' || text === '') return [];
  return JSON.parse(text) as LinkRule[];
}

function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

export const GROUP_COLUMNS = 'id, workspace_id, name, api_id, created_at';

export const API_KEY_COLUMNS =
  'id, workspace_id, name, prefix, scopes, main, created_by, created_at, revoked_at, last_used_at';

export const SESSION_COLUMNS = 'user_id, csrf_token, expires_at, agent, created_at, last_seen_at';

/** A plan from its own columns, or from the `plan_*` aliases of JOINED_PLAN_COLUMNS, with what it is sold as. */
function planFrom(row: Row, prefix: '' | 'plan_'): Plan {
  const amount = row[`${prefix}price_amount`];
  return {
    id: row[`${prefix}id`] as number,
    name: row[`${prefix}name`] as string,
    apiAccess: truthy(row[`${prefix}api_access`]),
    urlQuota: row[`${prefix}url_quota`] as number,
    rateLimitPerHour: row[`${prefix}rate_limit_per_hour`] as number,
    price:
      amount === null || amount === undefined
        ? null
        : { amount: Number(amount), currency: String(row[`${prefix}price_currency`] ?? '') },
    public: truthy(row[`${prefix}public`]),
    description: String(row[`${prefix}description`] ?? ''),
    stripePriceId: (row[`${prefix}stripe_price_id`] as string | null | undefined) ?? null,
  };
}

export const toPlan = (row: Row): Plan => planFrom(row, '');
export const toJoinedPlan = (row: Row): Plan => planFrom(row, 'plan_');

export function toKeyOwner(row: Row): KeyOwner {
  return {
    keyId: row.key_id as number,
    hash: buffer(row.hash),
    prefix: row.prefix as string,
    // A key whose maker has left the workspace is revoked with the membership; were one missed, it
    // would still be refused here.
    revoked: row.revoked_at !== null || (row.created_by !== null && !isRole(row.role)),
    workspaceId: row.workspace_id as number,
    plan: toJoinedPlan(row),
    scopes: scopesFrom(row.scopes as string),
    userId: (row.created_by as number | null) ?? null,
    role: row.created_by === null ? 'owner' : isRole(row.role) ? row.role : 'viewer',
    suspended: row.workspace_suspended_at != null || row.maker_suspended_at != null,
  };
}

export function toApiKeyInfo(row: Row): ApiKeyInfo {
  return {
    id: row.id as number,
    workspaceId: row.workspace_id as number,
    name: row.name as string,
    prefix: row.prefix as string,
    scopes: scopesFrom(row.scopes as string),
    main: truthy(row.main),
    createdBy: (row.created_by as number | null) ?? null,
    createdAt: new Date(row.created_at as number),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at as number),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at as number),
  };
}

export function toGroup(row: Row): Group {
  return {
    id: row.id as number,
    workspaceId: row.workspace_id as number,
    name: row.name as string,
    apiId: row.api_id as string,
    createdAt: new Date(row.created_at as number),
  };
}

export function toRedirectLink(row: Row): RedirectLink {
  return {
    id: row.id as number,
    code: row.code as string,
    domainId: Number(row.domain_id ?? 0),
    workspaceId: row.workspace_id as number,
    longUrl: row.long_url as string,
    title: row.title as string,
    clicks: row.clicks as number,
    expiresAt:
      row.expires_at === null || row.expires_at === undefined ? null : new Date(Number(row.expires_at)),
    maxClicks: numberOrNull(row.max_clicks),
    limitUsed: Number(row.limit_used ?? 0),
    passwordHash: (row.password_hash as string | null | undefined) ?? null,
    rules: rulesOf(row.rules),
    disabled:
      row.disabled_at === null || row.disabled_at === undefined
        ? null
        : { at: new Date(Number(row.disabled_at)), reason: String(row.disabled_reason ?? '') },
    forwardQuery: truthy(row.forward_query),
    preview: previewOf(row.preview),
    tracksConversions: truthy(row.tracks_conversions),
    test: testOf(row),
  };
}

export function toLink(row: Row): Link {
  return {
    ...toRedirectLink(row),
    groupId: (row.group_id as number | null) ?? null,
    normalizedUrl: row.normalized_url as string,
    botHits: row.bot_hits as number,
    uniqueVisitors: Number(row.unique_visitors ?? 0),
    createdAt: new Date(row.created_at as number),
    updatedAt: new Date((row.updated_at ?? row.created_at) as number),
    archived: truthy(row.archived),
    lastClickedAt: dateOrNull(row.last_clicked_at),
    publicStats: truthy(row.public_stats),
    trackConversions:
      row.track_conversions === null || row.track_conversions === undefined
        ? null
        : truthy(row.track_conversions),
    leads: Number(row.leads ?? 0),
    sales: Number(row.sales ?? 0),
    revenue: revenueOf(row.revenue),
    health: healthOf(row),
  };
}

/** Revenue per currency as stored: a JSON object, NULL for none. */
export function revenueOf(text: unknown): Record<string, number> {
  if (typeof text !== 'string' || text === '') return {};
  return JSON.parse(text) as Record<string, number>;
}

export function toSession(row: Row): SessionRecord {
  return {
    userId: row.user_id as number,
    csrfToken: row.csrf_token as string,
    expiresAt: new Date(Number(row.expires_at)),
    agent: (row.agent as string | null) ?? null,
    lastSeenAt: new Date(Number(row.last_seen_at ?? row.created_at)),
  };
}

/** A row or undefined, mapped. */
export function mapRow<T>(row: Row | undefined, map: (row: Row) => T): T | undefined {
  return row === undefined ? undefined : map(row);
}

/** The first row mapped, or undefined when the query matched none. */
export function mapFirst<T>(rows: readonly Row[], map: (row: Row) => T): T | undefined {
  return mapRow(rows[0], map);
}

/** `%text%` for LIKE, with the wildcards and the escape character of the text taken literally. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
