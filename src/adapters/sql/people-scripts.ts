/**
 * Users, workspaces and members, written once for both dialects (adapters/sql/script.ts). Each
 * multi-statement change runs in one transaction; "never without an owner" is decided under the
 * workspace's lock, so two owners demoting each other at once cannot both succeed.
 */
import { mayAssign, ROLES, type Role } from '../../core/authorization.ts';
import type { Account, Member, MembershipOf, User, Workspace } from '../../core/entities.ts';
import type { CreateAccountResult, CreateWorkspaceResult, MemberChange } from '../../core/ports/store.ts';
import { personalSlug } from '../../core/workspace-slug.ts';
import {
  toAccount,
  toMember,
  toMembershipOf,
  toUser,
  toWorkspace,
  USER_COLUMNS,
  WORKSPACE_COLUMNS,
  WORKSPACE_FROM,
} from './people-rows.ts';
import { mapFirst } from './rows.ts';
import { lockWorkspace, q, type Script } from './script.ts';

const ACCOUNTS = `SELECT ${USER_COLUMNS}, ${WORKSPACE_COLUMNS}
  FROM users u JOIN workspaces w ON w.personal_of = u.id JOIN plans p ON p.id = w.plan_id`;
const USERS = `SELECT ${USER_COLUMNS} FROM users u`;
const WORKSPACES = `SELECT ${WORKSPACE_COLUMNS} FROM ${WORKSPACE_FROM}`;
const ROLE_ORDER = "CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'member' THEN 2 ELSE 3 END";

export function* accountOf(column: 'u.id' | 'u.email', value: number | string): Script<Account | undefined> {
  return mapFirst(yield q(`${ACCOUNTS} WHERE ${column} = ?`, value), toAccount);
}

export function* listAccounts(): Script<Account[]> {
  return (yield q(`${ACCOUNTS} ORDER BY u.id`)).map(toAccount);
}

export function* userOf(column: 'u.id' | 'u.email', value: number | string): Script<User | undefined> {
  return mapFirst(yield q(`${USERS} WHERE ${column} = ?`, value), toUser);
}

export function* userByIdentity(issuer: string, subject: string): Script<User | undefined> {
  const sql = `${USERS} JOIN user_identities i ON i.user_id = u.id WHERE i.issuer = ? AND i.subject = ?`;
  return mapFirst(yield q(sql, issuer, subject), toUser);
}

export function* workspaceOf(
  column: 'w.id' | 'w.slug',
  value: number | string,
): Script<Workspace | undefined> {
  return mapFirst(yield q(`${WORKSPACES} WHERE ${column} = ?`, value), toWorkspace);
}

export function* listWorkspaces(): Script<Workspace[]> {
  return (yield q(`${WORKSPACES} ORDER BY w.id`)).map(toWorkspace);
}

/** A membership with its role, joined at `at` (the caller knows there is none yet). */
export function* insertMembership(workspaceId: number, userId: number, role: Role, at: number): Script<void> {
  yield q(
    'INSERT INTO memberships (workspace_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)',
    workspaceId,
    userId,
    role,
    at,
  );
}

/** A new workspace row, or undefined when the slug is taken. */
function* insertWorkspace(
  slug: string,
  name: string,
  planId: number,
  personalOf: number | null,
  at: number,
): Script<number | undefined> {
  const rows = yield q(
    `INSERT INTO workspaces (slug, name, plan_id, personal_of, created_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (slug) DO NOTHING RETURNING id`,
    slug,
    name,
    planId,
    personalOf,
    at,
  );
  return rows[0]?.id as number | undefined;
}

export function* createAccount(
  email: string,
  planId: number,
  passwordHash: string | null,
  verified: boolean,
): Script<CreateAccountResult> {
  const at = Date.now();
  const users = yield q(
    `INSERT INTO users (email, password_hash, email_verified, operator, created_at)
      VALUES (?, ?, ${verified ? 'true' : 'false'}, false, ?) ON CONFLICT (email) DO NOTHING RETURNING id`,
    email,
    passwordHash,
    at,
  );
  const userId = users[0]?.id as number | undefined;
  if (userId === undefined) return { kind: 'email-taken' };
  const slug = personalSlug(email, userId);
  const workspaceId =
    (yield* insertWorkspace(slug, email, planId, userId, at)) ??
    (yield* insertWorkspace(`${slug}-${at.toString(36)}`, email, planId, userId, at));
  if (workspaceId === undefined) throw new Error(`no free slug for the personal workspace of ${email}`);
  yield* insertMembership(workspaceId, userId, 'owner', at);
  yield q('UPDATE users SET last_workspace_id = ? WHERE id = ?', workspaceId, userId);
  const account = yield* accountOf('u.id', userId);
  if (!account) throw new Error(`account ${email} vanished after insert`);
  return { kind: 'created', account };
}

export function* createWorkspace(
  slug: string,
  name: string,
  planId: number,
  ownerId: number,
): Script<CreateWorkspaceResult> {
  const at = Date.now();
  const id = yield* insertWorkspace(slug, name, planId, null, at);
  if (id === undefined) return { kind: 'slug-taken' };
  yield* insertMembership(id, ownerId, 'owner', at);
  const workspace = yield* workspaceOf('w.id', id);
  if (!workspace) throw new Error(`workspace ${slug} vanished after insert`);
  return { kind: 'created', workspace };
}

export function* setWorkspaceTimezone(workspaceId: number, timezone: string): Script<void> {
  yield q('UPDATE workspaces SET timezone = ? WHERE id = ?', timezone, workspaceId);
}

export function* workspacesOf(userId: number): Script<MembershipOf[]> {
  const sql = `SELECT ${WORKSPACE_COLUMNS}, m.role
    FROM memberships m JOIN workspaces w ON w.id = m.workspace_id JOIN plans p ON p.id = w.plan_id
    WHERE m.user_id = ? ORDER BY CASE WHEN w.personal_of = m.user_id THEN 0 ELSE 1 END, w.name, w.id`;
  return (yield q(sql, userId)).map(toMembershipOf);
}

export function* roleOf(workspaceId: number, userId: number): Script<Role | undefined> {
  const rows = yield q(
    'SELECT role FROM memberships WHERE workspace_id = ? AND user_id = ?',
    workspaceId,
    userId,
  );
  return rows[0]?.role as Role | undefined;
}

export function* listMembers(workspaceId: number): Script<Member[]> {
  const sql = `SELECT m.user_id, u.email, m.role, m.joined_at FROM memberships m JOIN users u ON u.id = m.user_id
    WHERE m.workspace_id = ? ORDER BY ${ROLE_ORDER}, u.email`;
  return (yield q(sql, workspaceId)).map(toMember);
}

export function* addMember(workspaceId: number, userId: number, role: Role): Script<boolean> {
  const rows = yield q(
    `INSERT INTO memberships (workspace_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (workspace_id, user_id) DO NOTHING RETURNING user_id`,
    workspaceId,
    userId,
    role,
    Date.now(),
  );
  return rows.length > 0;
}

/** The member's role now, and whether changing it away from owner would leave no owner. */
function* guardLastOwner(
  workspaceId: number,
  userId: number,
  next: Role | null,
): Script<MemberChange | Role> {
  yield lockWorkspace(workspaceId);
  const current = yield* roleOf(workspaceId, userId);
  if (current === undefined) return 'not-found';
  if (current === 'owner' && next !== 'owner') {
    const owners = yield q(
      "SELECT COUNT(*) AS n FROM memberships WHERE workspace_id = ? AND role = 'owner'",
      workspaceId,
    );
    if (Number(owners[0]?.n) <= 1) return 'last-owner';
  }
  return current;
}

const isChange = (value: MemberChange | Role): value is MemberChange =>
  value === 'not-found' || value === 'last-owner' || value === 'done';

/**
 * Revokes the pending invitations the member made in the workspace that their role now (none once
 * removed) could not make: an invitation carries its maker's power only while they still hold it.
 */
export function* revokeInvitationsBeyond(
  workspaceId: number,
  userId: number,
  now: Role | null,
): Script<void> {
  const beyond = ROLES.filter((role) => now === null || !mayAssign(now, role));
  if (beyond.length === 0) return;
  yield q(
    `UPDATE invitations SET revoked_at = ? WHERE workspace_id = ? AND invited_by = ?
      AND role IN (${beyond.map(() => '?').join(', ')}) AND accepted_at IS NULL AND revoked_at IS NULL`,
    Date.now(),
    workspaceId,
    userId,
    ...beyond,
  );
}

export function* changeRole(workspaceId: number, userId: number, role: Role): Script<MemberChange> {
  const guard = yield* guardLastOwner(workspaceId, userId, role);
  if (isChange(guard)) return guard;
  yield q(
    'UPDATE memberships SET role = ? WHERE workspace_id = ? AND user_id = ?',
    role,
    workspaceId,
    userId,
  );
  yield* revokeInvitationsBeyond(workspaceId, userId, role);
  return 'done';
}

export function* removeMember(workspaceId: number, userId: number): Script<MemberChange> {
  const guard = yield* guardLastOwner(workspaceId, userId, null);
  if (isChange(guard)) return guard;
  yield q('DELETE FROM memberships WHERE workspace_id = ? AND user_id = ?', workspaceId, userId);
  const revoked = yield q(
    'UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND created_by = ? AND revoked_at IS NULL RETURNING id',
    Date.now(),
    workspaceId,
    userId,
  );
  if (revoked.length > 0) {
    yield q('UPDATE workspaces SET key_count = key_count - ? WHERE id = ?', revoked.length, workspaceId);
  }
  yield* revokeInvitationsBeyond(workspaceId, userId, null);
  yield q(
    'UPDATE users SET last_workspace_id = NULL WHERE id = ? AND last_workspace_id = ?',
    userId,
    workspaceId,
  );
  return 'done';
}
