import { type Action, isRole, mayAssign, mayRemove, type Role } from '../../core/authorization.ts';
import type { Member, User, Workspace } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { NO_AUDIT, type RecordAudit } from '../../core/moderation.ts';
import { normalizeEmail } from '../../core/plans.ts';
import type { AccountStore, MemberChange, WorkspaceStore } from '../../core/ports/store.ts';
import { type AuditedActing, auditFact, auditTrail } from './audit-actor.ts';

/**
 * The people of a workspace (docs/api.md §11): who is in it with which role, changed by those whose
 * role allows it (core/authorization.ts), never leaving it without an owner (409 `319`). The API,
 * the pages and the CLI all change members through here.
 */

/**
 * Who acts: a member (id and role), or the operator (null id, acting as an owner); `by` names them
 * in the audit log.
 */
export interface Acting extends AuditedActing {
  role: Role;
}

export const OPERATOR: Acting = { userId: null, role: 'owner' };

export type MembersStore = Pick<
  AccountStore & WorkspaceStore,
  'listMembers' | 'findUserByEmail' | 'findUserById' | 'roleOf' | 'addMember' | 'changeRole' | 'removeMember'
>;

export function roleFrom(value: unknown): Role {
  if (!isRole(value)) throw new Refusal('role-invalid');
  return value;
}

function changed(result: MemberChange): void {
  if (result === 'last-owner') throw new Refusal('319');
  if (result === 'not-found') throw new Refusal('no-such-member');
}

export function refuseUnless(allowed: boolean, what: Action | 'owners'): void {
  if (!allowed) {
    throw new Refusal(
      'forbidden',
      what === 'owners' ? 'Only an owner makes, changes or removes an owner.' : undefined,
    );
  }
}

/**
 * Each change is recorded in the audit log (`audit`, none by default): member.add, member.role,
 * member.remove and member.leave, the member's email the target, their role before and after.
 */
export function membersService(store: MembersStore, audit: RecordAudit = NO_AUDIT) {
  const record = auditTrail(audit, store);

  /** The member of that email, with their role. */
  async function memberOf(workspace: Workspace, email: string): Promise<{ user: User; role: Role }> {
    const normalized = normalizeEmail(email);
    const user = normalized ? await store.findUserByEmail(normalized) : undefined;
    const role = user && (await store.roleOf(workspace.id, user.id));
    if (!user || !role) throw new Refusal('no-such-member');
    return { user, role };
  }

  /** The member as the store has them now (after a change). */
  async function memberNow(workspace: Workspace, userId: number): Promise<Member> {
    const member = (await store.listMembers(workspace.id)).find((m) => m.userId === userId);
    if (!member) throw new Refusal('no-such-member');
    return member;
  }

  return {
    list: (workspace: Workspace): Promise<Member[]> => store.listMembers(workspace.id),

    memberOf,

    async changeRole(workspace: Workspace, acting: Acting, email: string, next: unknown): Promise<Member> {
      const role = roleFrom(next);
      const target = await memberOf(workspace, email);
      refuseUnless(
        mayAssign(acting.role, role, target.role),
        role === 'owner' || target.role === 'owner' ? 'owners' : 'members:write',
      );
      changed(await store.changeRole(workspace.id, target.user.id, role));
      if (role !== target.role) {
        const fact = auditFact(
          workspace.id,
          'member.role',
          target.user.email,
          { role: target.role },
          { role },
        );
        await record(acting, fact);
      }
      return memberNow(workspace, target.user.id);
    },

    /** Removes a member (revoking the keys they made); anyone may leave, but never the last owner. */
    async remove(workspace: Workspace, acting: Acting, email: string): Promise<void> {
      const target = await memberOf(workspace, email);
      const leaving = acting.userId !== null && acting.userId === target.user.id;
      if (!leaving)
        refuseUnless(
          mayRemove(acting.role, target.role),
          target.role === 'owner' ? 'owners' : 'members:write',
        );
      changed(await store.removeMember(workspace.id, target.user.id));
      const action = leaving ? 'member.leave' : 'member.remove';
      await record(acting, auditFact(workspace.id, action, target.user.email, { role: target.role }, null));
    },

    /** The operator's `snip member add`: an existing user joins with a role. */
    async add(
      workspace: Workspace,
      email: string,
      roleText: unknown,
      acting: AuditedActing = OPERATOR,
    ): Promise<Member> {
      const role = roleFrom(roleText);
      const normalized = normalizeEmail(email);
      const user = normalized ? await store.findUserByEmail(normalized) : undefined;
      if (!user) throw new Refusal('no-such-account', `no user with email "${email}"`);
      if (!(await store.addMember(workspace.id, user.id, role))) throw new Refusal('already-member');
      await record(acting, auditFact(workspace.id, 'member.add', user.email, null, { role }));
      return memberNow(workspace, user.id);
    },
  };
}

export type MembersService = ReturnType<typeof membersService>;
