/** Invitations and single-use user tokens, written once for both dialects (adapters/sql/script.ts). */
import { mayAssign, ROLES, type Role } from '../../core/authorization.ts';
import type { Invitation, NewInvitation, User } from '../../core/entities.ts';
import type { AcceptInvitationResult, TokenPurpose } from '../../core/ports/store.ts';
import { INVITATION_COLUMNS, toInvitation } from './people-rows.ts';
import { insertMembership, roleOf } from './people-scripts.ts';
import { mapFirst } from './rows.ts';
import { lockWorkspace, q, type Script } from './script.ts';

const PENDING = 'accepted_at IS NULL AND revoked_at IS NULL';

export function* createInvitation(invitation: NewInvitation): Script<Invitation> {
  const at = Date.now();
  const { workspaceId, email, role, tokenHash, invitedBy, expiresAt } = invitation;
  yield q(
    `UPDATE invitations SET revoked_at = ? WHERE workspace_id = ? AND email = ? AND ${PENDING}`,
    at,
    workspaceId,
    email,
  );
  const rows = yield q(
    `INSERT INTO invitations (workspace_id, email, role, token_hash, invited_by, created_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${INVITATION_COLUMNS}`,
    workspaceId,
    email,
    role,
    tokenHash,
    invitedBy,
    at,
    expiresAt.getTime(),
  );
  const made = mapFirst(rows, toInvitation);
  if (!made) throw new Error('INSERT … RETURNING gave no row');
  return made;
}

export function* listInvitations(workspaceId: number, now: Date): Script<Invitation[]> {
  const sql = `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE workspace_id = ? AND ${PENDING} AND expires_at > ?
    ORDER BY id DESC`;
  return (yield q(sql, workspaceId, now.getTime())).map(toInvitation);
}

export function* invitationByHash(tokenHash: Buffer): Script<Invitation | undefined> {
  return mapFirst(
    yield q(`SELECT ${INVITATION_COLUMNS} FROM invitations WHERE token_hash = ?`, tokenHash),
    toInvitation,
  );
}

export function* revokeInvitation(workspaceId: number, id: number): Script<boolean> {
  const rows = yield q(
    `UPDATE invitations SET revoked_at = ? WHERE workspace_id = ? AND id = ? AND ${PENDING} RETURNING id`,
    Date.now(),
    workspaceId,
    id,
  );
  return rows.length > 0;
}

const rank = (role: Role) => ROLES.indexOf(role);

export function* acceptInvitation(
  tokenHash: Buffer,
  user: Pick<User, 'id' | 'email'>,
  now: Date,
): Script<AcceptInvitationResult> {
  const invitation = yield* invitationByHash(tokenHash);
  if (!invitation || invitation.acceptedAt || invitation.revokedAt || invitation.expiresAt <= now) {
    return { kind: 'gone' };
  }
  if (invitation.email !== user.email) return { kind: 'wrong-email' };
  const { workspaceId, role } = invitation;
  yield lockWorkspace(workspaceId);
  // Its maker's power is asked again now: an invitation left pending by a maker who has lost it
  // since (an account deleted, or one made before removals revoked invitations) grants nothing.
  if (invitation.invitedBy !== null) {
    const inviter = yield* roleOf(workspaceId, invitation.invitedBy);
    if (inviter === undefined || !mayAssign(inviter, role)) {
      yield q(
        `UPDATE invitations SET revoked_at = ? WHERE id = ? AND ${PENDING}`,
        now.getTime(),
        invitation.id,
      );
      return { kind: 'gone' };
    }
  }
  const taken = yield q(
    `UPDATE invitations SET accepted_at = ?, accepted_by = ? WHERE id = ? AND ${PENDING} RETURNING id`,
    now.getTime(),
    user.id,
    invitation.id,
  );
  if (taken.length === 0) return { kind: 'gone' };
  const current = yield* roleOf(workspaceId, user.id);
  if (current === undefined) {
    yield* insertMembership(workspaceId, user.id, role, now.getTime());
  } else if (rank(role) < rank(current)) {
    yield q(
      'UPDATE memberships SET role = ? WHERE workspace_id = ? AND user_id = ?',
      role,
      workspaceId,
      user.id,
    );
  }
  const kept = current !== undefined && rank(current) <= rank(role) ? current : role;
  return { kind: 'accepted', workspaceId, role: kept };
}

export function* createUserToken(
  tokenHash: Buffer,
  userId: number,
  purpose: TokenPurpose,
  expiresAt: Date,
): Script<void> {
  yield q(
    'INSERT INTO user_tokens (token_hash, user_id, purpose, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    tokenHash,
    userId,
    purpose,
    Date.now(),
    expiresAt.getTime(),
  );
}

export function* userTokenLive(tokenHash: Buffer, purpose: TokenPurpose, now: Date): Script<boolean> {
  const rows = yield q(
    'SELECT 1 AS live FROM user_tokens WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?',
    tokenHash,
    purpose,
    now.getTime(),
  );
  return rows.length > 0;
}

export function* takeUserToken(
  tokenHash: Buffer,
  purpose: TokenPurpose,
  now: Date,
): Script<number | undefined> {
  const rows = yield q(
    `UPDATE user_tokens SET used_at = ? WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?
      RETURNING user_id`,
    now.getTime(),
    tokenHash,
    purpose,
    now.getTime(),
  );
  const userId = rows[0]?.user_id as number | undefined;
  // One link of a purpose used ends the others: an older reset link must not undo a newer reset.
  if (userId !== undefined) yield* endUserTokens(userId, purpose, now.getTime());
  return userId;
}

/** Ends every unused link of that purpose of the user. */
export function* endUserTokens(userId: number, purpose: TokenPurpose, at: number): Script<void> {
  yield q(
    'UPDATE user_tokens SET used_at = ? WHERE user_id = ? AND purpose = ? AND used_at IS NULL',
    at,
    userId,
    purpose,
  );
}

/**
 * A new password, and with it the end of every reset link still out for the old one and of every
 * change of email asked for under it.
 */
export function* setPasswordHash(userId: number, passwordHash: string): Script<void> {
  yield q('UPDATE users SET password_hash = ? WHERE id = ?', passwordHash, userId);
  yield* endUserTokens(userId, 'reset', Date.now());
  yield q('UPDATE email_changes SET used_at = ? WHERE user_id = ? AND used_at IS NULL', Date.now(), userId);
}
