/**
 * Row shapes as the SQL in this folder selects them, and their mapping to the port types. The
 * columns are those of the SQLite adapter; only the driver's value types differ (BOOLEAN arrives as
 * a boolean, BYTEA as a Buffer, int8 as a number through the pool's type parser).
 */
import type { Account, ApiKeyInfo, Group, KeyOwner, Link, Plan, SessionRecord } from '../ports.ts';
import type { Row } from './client.ts';

export const PLAN_COLUMNS = 'id, name, api_access, url_quota, rate_limit_per_hour';

/** Plan columns aliased `plan_*`, for joins with accounts or keys (plans aliased `p`). */
export const JOINED_PLAN_COLUMNS =
  'p.id AS plan_id, p.name AS plan_name, p.api_access AS plan_api_access, ' +
  'p.url_quota AS plan_url_quota, p.rate_limit_per_hour AS plan_rate_limit_per_hour';

export const ACCOUNT_COLUMNS = `a.id, a.email, a.password_hash, a.created_at, ${JOINED_PLAN_COLUMNS}`;

export const LINK_COLUMNS =
  'id, code, account_id, group_id, long_url, normalized_url, title, clicks, bot_hits, created_at';

export const GROUP_COLUMNS = 'id, account_id, name, api_id, created_at';

export const API_KEY_COLUMNS = 'id, account_id, prefix, created_at, revoked_at';

export const SESSION_COLUMNS = 'account_id, csrf_token, expires_at';

export function toPlan(row: Row): Plan {
  return {
    id: row.id as number,
    name: row.name as string,
    apiAccess: row.api_access === true,
    urlQuota: row.url_quota as number,
    rateLimitPerHour: row.rate_limit_per_hour as number,
  };
}

function toJoinedPlan(row: Row): Plan {
  return {
    id: row.plan_id as number,
    name: row.plan_name as string,
    apiAccess: row.plan_api_access === true,
    urlQuota: row.plan_url_quota as number,
    rateLimitPerHour: row.plan_rate_limit_per_hour as number,
  };
}

export function toAccount(row: Row): Account {
  return {
    id: row.id as number,
    email: row.email as string,
    plan: toJoinedPlan(row),
    passwordHash: (row.password_hash as string | null) ?? null,
    createdAt: new Date(row.created_at as number),
  };
}

export function toKeyOwner(row: Row): KeyOwner {
  return {
    keyId: row.key_id as number,
    hash: row.hash as Buffer,
    prefix: row.prefix as string,
    revoked: row.revoked_at !== null,
    accountId: row.account_id as number,
    plan: toJoinedPlan(row),
  };
}

export function toApiKeyInfo(row: Row): ApiKeyInfo {
  return {
    id: row.id as number,
    accountId: row.account_id as number,
    prefix: row.prefix as string,
    createdAt: new Date(row.created_at as number),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at as number),
  };
}

export function toGroup(row: Row): Group {
  return {
    id: row.id as number,
    accountId: row.account_id as number,
    name: row.name as string,
    apiId: row.api_id as string,
    createdAt: new Date(row.created_at as number),
  };
}

export function toLink(row: Row): Link {
  return {
    id: row.id as number,
    code: row.code as string,
    accountId: row.account_id as number,
    groupId: (row.group_id as number | null) ?? null,
    longUrl: row.long_url as string,
    normalizedUrl: row.normalized_url as string,
    title: row.title as string,
    clicks: row.clicks as number,
    botHits: row.bot_hits as number,
    createdAt: new Date(row.created_at as number),
  };
}

export function toSession(row: Row): SessionRecord {
  return {
    accountId: row.account_id as number,
    csrfToken: row.csrf_token as string,
    expiresAt: new Date(row.expires_at as number),
  };
}

/** The first row mapped, or undefined when the query matched none. */
export function mapFirst<T>(rows: readonly Row[], map: (row: Row) => T): T | undefined {
  const row = rows[0];
  return row === undefined ? undefined : map(row);
}
