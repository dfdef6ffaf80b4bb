/** Users, workspaces, members and invitations as both adapters select them. */
import { isRole, type Role } from '../../core/authorization.ts';
import type { Account, Invitation, Member, MembershipOf, User, Workspace } from '../../core/entities.ts';
import { zoneOrUtc } from '../../core/time-zone.ts';
import { dateOrNull, JOINED_PLAN_COLUMNS, type Row, toJoinedPlan, truthy } from './rows.ts';

/** Users aliased `u`, their columns prefixed `user_` so they can share a row with a workspace. */
export const USER_COLUMNS =
  'u.id AS user_id, u.email AS user_email, u.password_hash AS user_password_hash, ' +
  'u.email_verified AS user_email_verified, u.operator AS user_operator, ' +
  'u.last_workspace_id AS user_last_workspace_id, u.suspended_at AS user_suspended_at, ' +
  '(u.totp_secret IS NOT NULL) AS user_two_factor, u.created_at AS user_created_at';

/** Workspaces aliased `w`, joined with their plan `p`. */
export const WORKSPACE_COLUMNS = `w.id, w.slug, w.name, w.personal_of, w.default_domain, w.suspended_at, w.suspended_reason, w.timezone, w.track_conversions, w.created_at, ${JOINED_PLAN_COLUMNS}`;

export const WORKSPACE_FROM = 'workspaces w JOIN plans p ON p.id = w.plan_id';

export const INVITATION_COLUMNS =
  'id, workspace_id, email, role, invited_by, created_at, expires_at, accepted_at, revoked_at';

const date = (value: unknown): Date => new Date(Number(value));
const numberOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

function role(value: unknown): Role {
  if (!isRole(value)) throw new Error(`stored role ${String(value)} is not a role`);
  return value;
}

export function toUser(row: Row): User {
  return {
    id: row.user_id as number,
    email: row.user_email as string,
    passwordHash: (row.user_password_hash as string | null) ?? null,
    emailVerified: truthy(row.user_email_verified),
    operator: truthy(row.user_operator),
    lastWorkspaceId: numberOrNull(row.user_last_workspace_id),
    suspendedAt: dateOrNull(row.user_suspended_at),
    twoFactor: truthy(row.user_two_factor),
    createdAt: date(row.user_created_at),
  };
}

export function toWorkspace(row: Row): Workspace {
  return {
    id: row.id as number,
    slug: row.slug as string,
    name: row.name as string,
    plan: toJoinedPlan(row),
    personalOf: numberOrNull(row.personal_of),
    defaultDomain: (row.default_domain as string | null) ?? null,
    suspended:
      row.suspended_at === null || row.suspended_at === undefined
        ? null
        : { at: date(row.suspended_at), reason: String(row.suspended_reason ?? '') },
    timezone: zoneOrUtc((row.timezone as string | null) ?? undefined),
    trackConversions: row.track_conversions === true || row.track_conversions === 1,
    createdAt: date(row.created_at),
  };
}

export const toAccount = (row: Row): Account => ({ user: toUser(row), workspace: toWorkspace(row) });

export const toMembershipOf = (row: Row): MembershipOf => ({
  workspace: toWorkspace(row),
  role: role(row.role),
});

export function toMember(row: Row): Member {
  return {
    userId: row.user_id as number,
    email: row.email as string,
    role: role(row.role),
    joinedAt: date(row.joined_at),
  };
}

export function toInvitation(row: Row): Invitation {
  return {
    id: row.id as number,
    workspaceId: row.workspace_id as number,
    email: row.email as string,
    role: role(row.role),
    invitedBy: numberOrNull(row.invited_by),
    createdAt: date(row.created_at),
    expiresAt: date(row.expires_at),
    acceptedAt: dateOrNull(row.accepted_at),
    revokedAt: dateOrNull(row.revoked_at),
  };
}
