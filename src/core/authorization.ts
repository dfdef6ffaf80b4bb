import { SCOPES, type Scope } from './scopes.ts';

/**
 * Who may do what in a workspace (docs/api.md §11): the one role × action table. The API (through a
 * key's maker), the pages (through the signed-in member) and the CLI (through `--by`) all ask here;
 * none decides for itself.
 */

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * Every action is a key scope or a thing only people do. `keys:write` is making, rotating and
 * revoking keys; `settings:write` the workspace's name and default domain; `owners:manage` making,
 * demoting or removing an owner; `workspace:delete` and `plan:change` stay the owner's.
 */
export type Action =
  | Scope
  | 'keys:write'
  | 'settings:write'
  | 'owners:manage'
  | 'workspace:delete'
  | 'plan:change';

const VIEWER: readonly Action[] = ['links:read', 'stats:read'];
const MEMBER: readonly Action[] = [
  ...VIEWER,
  'links:create',
  'links:write',
  'groups:write',
  'conversions:write',
];
const ADMIN: readonly Action[] = [
  ...MEMBER,
  'members:read',
  'members:write',
  'domains:write',
  'webhooks:write',
  'audit:read',
  'keys:write',
  'settings:write',
];
const OWNER: readonly Action[] = [...ADMIN, 'owners:manage', 'workspace:delete', 'plan:change'];

const TABLE: Readonly<Record<Role, ReadonlySet<Action>>> = {
  owner: new Set(OWNER),
  admin: new Set(ADMIN),
  member: new Set(MEMBER),
  viewer: new Set(VIEWER),
};

export function may(role: Role, action: Action): boolean {
  return TABLE[role].has(action);
}

/** The scopes a key made by this role may hold: none beyond what the role itself may do. */
export function scopesOfRole(role: Role): Scope[] {
  return SCOPES.filter((scope) => may(role, scope));
}

/** Whether a key made by this role may hold every one of these scopes. */
export function scopesWithinRole(role: Role, scopes: readonly Scope[]): boolean {
  return scopes.every((scope) => may(role, scope));
}

/**
 * Whether someone of `actor`'s role may give `target` role `next` (a new member, an invitation, a
 * role change: `current` is the target's role now, if any). Members' roles are managed by admins;
 * anything that makes, changes or removes an owner needs an owner.
 */
export function mayAssign(actor: Role, next: Role, current?: Role): boolean {
  if (!may(actor, 'members:write')) return false;
  if (next === 'owner' || current === 'owner') return may(actor, 'owners:manage');
  return true;
}

/** Whether someone of `actor`'s role may remove a member whose role is `target`. */
export function mayRemove(actor: Role, target: Role): boolean {
  if (!may(actor, 'members:write')) return false;
  return target !== 'owner' || may(actor, 'owners:manage');
}
