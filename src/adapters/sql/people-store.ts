/**
 * Users, workspaces, members, invitations and user tokens on either dialect: the ports, each a
 * script (people-scripts.ts, invitation-scripts.ts) run by the adapter's ScriptRunner.
 */
import type {
  AccountStore,
  InvitationStore,
  UserTokenStore,
  WorkspaceStore,
} from '../../core/ports/store.ts';
import * as invitations from './invitation-scripts.ts';
import * as people from './people-scripts.ts';
import { q, type ScriptRunner } from './script.ts';
import { trustStore } from './trust-scripts.ts';

type PlanMethods = 'upsertPlan' | 'findPlanByName' | 'listPlans' | 'ensureDefaultPlans';
export type PeopleStore = Omit<AccountStore, PlanMethods> & WorkspaceStore & InvitationStore & UserTokenStore;

const lower = (email: string) => email.toLowerCase();

export function peopleStore({ read, write }: ScriptRunner): PeopleStore {
  function* update(sql: string, ...params: Array<string | number | null>) {
    yield q(sql, ...params);
  }
  return {
    ...trustStore({ read, write }),
    createAccount: (email, planId, hash, verified = false) =>
      write(people.createAccount(lower(email), planId, hash, verified)),
    findAccountByEmail: (email) => read(people.accountOf('u.email', lower(email))),
    listAccounts: () => read(people.listAccounts()),
    findUserById: (id) => read(people.userOf('u.id', id)),
    findUserByEmail: (email) => read(people.userOf('u.email', lower(email))),
    setPasswordHash: (userId, hash) => write(invitations.setPasswordHash(userId, hash)),
    setEmailVerified: (userId) =>
      write(update('UPDATE users SET email_verified = true WHERE id = ?', userId)),
    setLastWorkspace: (userId, workspaceId) =>
      write(update('UPDATE users SET last_workspace_id = ? WHERE id = ?', workspaceId, userId)),
    findUserByIdentity: (issuer, subject) => read(people.userByIdentity(issuer, subject)),
    linkIdentity: (userId, issuer, subject) =>
      write(
        update(
          `INSERT INTO user_identities (issuer, subject, user_id, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (issuer, subject) DO NOTHING`,
          issuer,
          subject,
          userId,
          Date.now(),
        ),
      ),

    createWorkspace: (slug, name, planId, ownerId) =>
      write(people.createWorkspace(slug, name, planId, ownerId)),
    findWorkspaceById: (id) => read(people.workspaceOf('w.id', id)),
    findWorkspaceBySlug: (slug) => read(people.workspaceOf('w.slug', slug)),
    listWorkspaces: () => read(people.listWorkspaces()),
    setWorkspacePlan: (workspaceId, planId) =>
      write(update('UPDATE workspaces SET plan_id = ? WHERE id = ?', planId, workspaceId)),
    renameWorkspace: (workspaceId, name) =>
      write(update('UPDATE workspaces SET name = ? WHERE id = ?', name, workspaceId)),
    setWorkspaceTimezone: (workspaceId, timezone) =>
      write(people.setWorkspaceTimezone(workspaceId, timezone)),
    workspacesOf: (userId) => read(people.workspacesOf(userId)),
    roleOf: (workspaceId, userId) => read(people.roleOf(workspaceId, userId)),
    listMembers: (workspaceId) => read(people.listMembers(workspaceId)),
    addMember: (workspaceId, userId, role) => write(people.addMember(workspaceId, userId, role)),
    changeRole: (workspaceId, userId, role) => write(people.changeRole(workspaceId, userId, role)),
    removeMember: (workspaceId, userId) => write(people.removeMember(workspaceId, userId)),

    createInvitation: (invitation) =>
      write(invitations.createInvitation({ ...invitation, email: lower(invitation.email) })),
    listInvitations: (workspaceId, now) => read(invitations.listInvitations(workspaceId, now)),
    findInvitationByHash: (hash) => read(invitations.invitationByHash(hash)),
    revokeInvitation: (workspaceId, id) => write(invitations.revokeInvitation(workspaceId, id)),
    acceptInvitation: (hash, user, now) => write(invitations.acceptInvitation(hash, user, now)),
    createUserToken: (hash, userId, purpose, expiresAt) =>
      write(invitations.createUserToken(hash, userId, purpose, expiresAt)),
    takeUserToken: (hash, purpose, now) => write(invitations.takeUserToken(hash, purpose, now)),
    userTokenLive: (hash, purpose, now) => read(invitations.userTokenLive(hash, purpose, now)),
  };
}
