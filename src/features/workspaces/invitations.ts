import { may, mayAssign } from '../../core/authorization.ts';
import type { Invitation, User, Workspace } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { hashLinkToken, isLinkToken, newLinkToken } from '../../core/link-token.ts';
import { NO_AUDIT, type RecordAudit } from '../../core/moderation.ts';
import { normalizeEmail } from '../../core/plans.ts';
import type { Mailer } from '../../core/ports/mailer.ts';
import type {
  AccountStore,
  InvitationStore as InvitationPort,
  WorkspaceStore,
} from '../../core/ports/store.ts';
import { auditFact, auditTrail, userAuditor } from './audit-actor.ts';
import { invitationMessage } from './mail/messages.ts';
import { type Acting, refuseUnless, roleFrom } from './members.ts';

/**
 * Invitations (docs/api.md §11): an admin invites an email with a role; the link is single-use,
 * valid 7 days, shown to copy and mailed when mail is configured; accepting needs being signed in
 * as that email. Only the token's SHA-256 is stored, so the link is known once, when it is made.
 */

export const INVITATION_DAYS = 7;
const DAY_MS = 86_400_000;

export type InvitationStore = Pick<
  AccountStore & InvitationPort & WorkspaceStore,
  | 'createInvitation'
  | 'listInvitations'
  | 'revokeInvitation'
  | 'findInvitationByHash'
  | 'acceptInvitation'
  | 'findUserByEmail'
  | 'findUserById'
  | 'roleOf'
  | 'findWorkspaceById'
>;

export interface InvitationOptions {
  store: InvitationStore;
  baseUrl: URL;
  mailer?: Mailer;
  /** Told of a mail that could not be sent (the link still works: it was shown to copy). */
  onMailError?: (error: unknown) => void;
  now?: () => number;
  /**
   * The audit log (none by default): invitation.create and invitation.revoke (the email the target,
   * its role, never the link), and member.join when the invitee accepts.
   */
  audit?: RecordAudit;
}

export interface MadeInvitation {
  invitation: Invitation;
  url: string;
}

export function invitationPath(token: string): string {
  return `/invitations/${token}`;
}

/** Mails the invitation's link, when mail is configured. */
async function mail(
  options: InvitationOptions,
  workspace: Workspace,
  acting: Acting,
  invitation: Invitation,
  url: string,
) {
  const { store } = options;
  if (!options.mailer) return;
  const inviter = acting.userId === null ? undefined : await store.findUserById(acting.userId);
  const message = invitationMessage({
    to: invitation.email,
    workspaceName: workspace.name,
    role: invitation.role,
    invitedBy: inviter?.email ?? 'The operator',
    url,
    expiresAt: invitation.expiresAt,
  });
  await options.mailer.send(message);
}

/** Neither accepted, revoked nor expired at `now`. */
export const isPending = (invitation: Invitation, now: number) =>
  !invitation.acceptedAt && !invitation.revokedAt && invitation.expiresAt.getTime() > now;

export function invitationsService(options: InvitationOptions) {
  const { store } = options;
  const now = options.now ?? Date.now;
  const record = auditTrail(options.audit ?? NO_AUDIT, store);

  return {
    async invite(
      workspace: Workspace,
      acting: Acting,
      emailText: unknown,
      roleText: unknown,
    ): Promise<MadeInvitation> {
      const email = typeof emailText === 'string' ? normalizeEmail(emailText) : undefined;
      if (!email) throw new Refusal('email-invalid');
      const role = roleFrom(roleText);
      refuseUnless(mayAssign(acting.role, role), role === 'owner' ? 'owners' : 'members:write');
      const existing = await store.findUserByEmail(email);
      if (existing && (await store.roleOf(workspace.id, existing.id))) throw new Refusal('already-member');
      const { token, hash } = newLinkToken();
      const invitation = await store.createInvitation({
        workspaceId: workspace.id,
        email,
        role,
        tokenHash: hash,
        invitedBy: acting.userId,
        expiresAt: new Date(now() + INVITATION_DAYS * DAY_MS),
      });
      const url = new URL(invitationPath(token), options.baseUrl).href;
      const after = { role, expires_at: invitation.expiresAt.toISOString() };
      await record(acting, auditFact(workspace.id, 'invitation.create', email, null, after));
      // Mail is a courtesy: the link is in the answer either way, and a slow server holds nothing up.
      mail(options, workspace, acting, invitation, url).catch((error) => options.onMailError?.(error));
      return { invitation, url };
    },

    pending: (workspace: Workspace): Promise<Invitation[]> =>
      store.listInvitations(workspace.id, new Date(now())),

    async revoke(workspace: Workspace, acting: Acting, id: number): Promise<void> {
      refuseUnless(may(acting.role, 'members:write'), 'members:write');
      const pending = (await store.listInvitations(workspace.id, new Date(now()))).find((i) => i.id === id);
      if (!(await store.revokeInvitation(workspace.id, id)))
        throw new Refusal('not-found', 'No pending invitation has that ID.');
      const target = pending?.email ?? `invitation ${id}`;
      const before = pending ? { role: pending.role } : null;
      await record(acting, auditFact(workspace.id, 'invitation.revoke', target, before, null));
    },

    /** The pending invitation a link names, with its workspace; undefined when it is used, revoked, expired or unknown. */
    async open(token: unknown): Promise<{ invitation: Invitation; workspace: Workspace } | undefined> {
      if (!isLinkToken(token)) return undefined;
      const invitation = await store.findInvitationByHash(hashLinkToken(token));
      if (!invitation || !isPending(invitation, now())) return undefined;
      const workspace = await store.findWorkspaceById(invitation.workspaceId);
      return workspace && { invitation, workspace };
    },

    /** Takes the invitation for the signed-in user: once, in time, and only for its email. */
    async accept(token: unknown, user: User): Promise<Workspace> {
      if (!isLinkToken(token)) throw new Refusal('invitation-gone');
      const result = await store.acceptInvitation(hashLinkToken(token), user, new Date(now()));
      if (result.kind === 'gone') throw new Refusal('invitation-gone');
      if (result.kind === 'wrong-email') throw new Refusal('invitation-other-email');
      const joined = auditFact(result.workspaceId, 'member.join', user.email, null, { role: result.role });
      await record({ userId: user.id, by: userAuditor(user) }, joined);
      const workspace = await store.findWorkspaceById(result.workspaceId);
      if (!workspace) throw new Refusal('invitation-gone');
      return workspace;
    },
  };
}

export type InvitationsService = ReturnType<typeof invitationsService>;
