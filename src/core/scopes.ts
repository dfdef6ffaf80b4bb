/**
 * What a key may do (docs/api.md §7.1, §11). The main key, the one in API Access, has every scope;
 * whatever a key holds, its maker's role in the workspace bounds it (core/authorization.ts).
 */
export const SCOPES = [
  'links:create',
  'links:read',
  'links:write',
  'stats:read',
  'groups:write',
  'members:read',
  'members:write',
  'domains:write',
  'webhooks:write',
  'audit:read',
  'conversions:write',
] as const;

export type Scope = (typeof SCOPES)[number];

/** Live keys a workspace may hold, the main key included. */
export const MAX_KEYS_PER_ACCOUNT = 10;

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Scopes from their stored form (space-separated), unknown words dropped, in the canonical order. */
export function scopesFrom(text: string): Scope[] {
  const given = new Set(text.split(/\s+/));
  return SCOPES.filter((scope) => given.has(scope));
}
