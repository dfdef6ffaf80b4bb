import type { Link, User, Workspace } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { ABUSE_CHANGED, linkKey } from '../../core/link-key.ts';
import type { DeleteResult, ModerationStore } from '../../core/ports/abuse-store.ts';
import type { AccountStore, WorkspaceStore } from '../../core/ports/people-store.ts';
import type { LinkEvents } from '../../core/ports/shared-state.ts';
import type { LinkStore } from '../../core/ports/store.ts';
import type { LinkEventSink } from '../../core/ports/webhook-store.ts';
import type { AuditActor, AuditLog } from './audit-log.ts';

/** A reason as an operator gives it: 1-500 characters. */
export function checkReason(reason: string | undefined, fallback?: string): string {
  const text = (reason ?? fallback ?? '').trim();
  if (text === '' || text.length > 500) throw new Refusal('reason-invalid');
  return text;
}

export interface TakedownOptions {
  store: ModerationStore &
    Pick<LinkStore, 'findLinkByCode'> &
    Pick<AccountStore, 'findUserByEmail'> &
    Pick<WorkspaceStore, 'findWorkspaceBySlug' | 'findWorkspaceById'>;
  linkEvents: Pick<LinkEvents, 'changed'>;
  audit: AuditLog;
  /** Makes link.disabled in the takedown's transaction (docs/api.md §14). */
  events?: LinkEventSink;
}

/** A link by its domain and code, as an operator names it. */
export interface LinkAddress {
  domainId: number;
  code: string;
}

async function linkAt({ store }: TakedownOptions, address: LinkAddress): Promise<Link> {
  const link = await store.findLinkByCode(address.domainId, address.code);
  if (!link) throw new Refusal('314');
  return link;
}

async function setDisabled(
  { store, linkEvents, audit, events }: TakedownOptions,
  actor: AuditActor,
  link: Link,
  reason: string | null,
): Promise<Link> {
  const changed = await store.setLinkDisabled(link.id, reason, events);
  if (!changed) throw new Refusal('314');
  await linkEvents.changed(linkKey(link.domainId, link.code));
  await recordChange(
    audit,
    actor,
    {
      workspaceId: link.workspaceId,
      action: reason === null ? 'link.enable' : 'link.disable',
      target: link.code,
    },
    { disabled: link.disabled !== null },
    { disabled: changed.disabled !== null, reason: changed.disabled?.reason ?? null },
  );
  return changed;
}

/** Records a takedown in the audit log when it changed something (doing it again records nothing). */
async function recordChange(
  audit: AuditLog,
  actor: AuditActor,
  what: { workspaceId: number | null; action: string; target: string },
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Promise<void> {
  if (Object.keys(before).every((key) => before[key] === after[key])) return;
  await audit.record(actor, { ...what, before, after });
}

async function workspaceOf({ store }: TakedownOptions, slug: string): Promise<Workspace> {
  const workspace = await store.findWorkspaceBySlug(slug);
  if (!workspace) throw new Refusal('no-such-workspace');
  return workspace;
}

async function userOf({ store }: TakedownOptions, email: string): Promise<User> {
  const user = await store.findUserByEmail(email.trim().toLowerCase());
  if (!user) throw new Refusal('no-such-user');
  return user;
}

async function suspendWorkspace(
  { store, linkEvents, audit }: TakedownOptions,
  actor: AuditActor,
  workspace: Workspace,
  reason: string | null,
) {
  const changed = await store.setWorkspaceSuspended(workspace.id, reason);
  if (!changed) throw new Refusal('no-such-workspace');
  await linkEvents.changed(ABUSE_CHANGED);
  await recordChange(
    audit,
    actor,
    {
      workspaceId: workspace.id,
      action: reason === null ? 'workspace.resume' : 'workspace.suspend',
      target: workspace.slug,
    },
    { suspended: workspace.suspended !== null },
    { suspended: changed.suspended !== null, reason: changed.suspended?.reason ?? null },
  );
  return changed;
}

async function suspendUser(deps: TakedownOptions, actor: AuditActor, email: string, suspended: boolean) {
  const { store, audit } = deps;
  const user = await userOf(deps, email);
  const changed = await store.setUserSuspended(user.id, suspended);
  if (!changed) throw new Refusal('no-such-user');
  await recordChange(
    audit,
    actor,
    { workspaceId: null, action: suspended ? 'user.suspend' : 'user.resume', target: user.email },
    { suspended: user.suspendedAt !== null },
    { suspended: changed.suspendedAt !== null },
  );
  return changed;
}

async function setOperator(deps: TakedownOptions, actor: AuditActor, email: string, operator: boolean) {
  const { store, audit } = deps;
  const user = await userOf(deps, email);
  const changed = await store.setUserOperator(user.id, operator);
  if (!changed) throw new Refusal('no-such-user');
  await recordChange(
    audit,
    actor,
    { workspaceId: null, action: operator ? 'operator.grant' : 'operator.revoke', target: user.email },
    { operator: user.operator },
    { operator: changed.operator },
  );
  return changed;
}

/** The deletion's refusals, as the surfaces answer them. */
function refuseDeletion(result: DeleteResult): void {
  if (result === 'not-found') throw new Refusal('not-found');
  if (result === 'personal') throw new Refusal('personal-workspace');
  if (result === 'last-owner') throw new Refusal('319');
}

async function deleteWorkspace(deps: TakedownOptions, actor: AuditActor, slug: string): Promise<void> {
  const workspace = await workspaceOf(deps, slug);
  refuseDeletion(await deps.store.deleteWorkspace(workspace.id));
  await deps.linkEvents.changed(ABUSE_CHANGED);
  await deps.audit.record(actor, {
    workspaceId: workspace.id,
    action: 'workspace.delete',
    target: workspace.slug,
  });
}

async function deleteUser(deps: TakedownOptions, actor: AuditActor, email: string): Promise<void> {
  const user = await userOf(deps, email);
  refuseDeletion(await deps.store.deleteUser(user.id));
  await deps.linkEvents.changed(ABUSE_CHANGED);
  await deps.audit.record(actor, { workspaceId: null, action: 'user.delete', target: user.email });
}

/**
 * Operators take things down (docs/api.md §13): a link disabled with a reason, a workspace or a user
 * suspended, the operator flag granted or revoked. Each is idempotent (doing it twice changes
 * nothing more), audited with its before and after, and announced so every instance redirects by
 * the new state within the cache's TTL.
 */
export function takedowns(deps: TakedownOptions) {
  const { store } = deps;
  /** A live link by id, whoever owns it (a report's link, a row of the console's search). */
  const linkById = async (id: number): Promise<Link> => {
    const link = await store.findLinkById(id);
    if (!link) throw new Refusal('314');
    return link;
  };
  return {
    linkAt: (address: LinkAddress) => linkAt(deps, address),
    linkById,
    disableLink: async (actor: AuditActor, address: LinkAddress, reason: string) =>
      setDisabled(deps, actor, await linkAt(deps, address), checkReason(reason)),
    disableLinkById: async (actor: AuditActor, id: number, reason: string) =>
      setDisabled(deps, actor, await linkById(id), checkReason(reason)),
    enableLinkById: async (actor: AuditActor, id: number) =>
      setDisabled(deps, actor, await linkById(id), null),
    enableLink: async (actor: AuditActor, address: LinkAddress) =>
      setDisabled(deps, actor, await linkAt(deps, address), null),
    suspendWorkspace: async (actor: AuditActor, slug: string, reason?: string) =>
      suspendWorkspace(deps, actor, await workspaceOf(deps, slug), checkReason(reason, 'abuse')),
    /** By id: a report's link's workspace. */
    async suspendWorkspaceById(actor: AuditActor, id: number, reason: string) {
      const workspace = await store.findWorkspaceById(id);
      if (!workspace) throw new Refusal('no-such-workspace');
      return suspendWorkspace(deps, actor, workspace, checkReason(reason));
    },
    resumeWorkspace: async (actor: AuditActor, slug: string) =>
      suspendWorkspace(deps, actor, await workspaceOf(deps, slug), null),
    suspendUser: (actor: AuditActor, email: string) => suspendUser(deps, actor, email, true),
    resumeUser: (actor: AuditActor, email: string) => suspendUser(deps, actor, email, false),
    /** Empties a team workspace for good (its links answer 404, its keys 303). */
    deleteWorkspace: (actor: AuditActor, slug: string) => deleteWorkspace(deps, actor, slug),
    /** Deletes a user and their personal workspace; never the last owner of a team's (319). */
    deleteUser: (actor: AuditActor, email: string) => deleteUser(deps, actor, email),
    grantOperator: (actor: AuditActor, email: string) => setOperator(deps, actor, email, true),
    revokeOperator: (actor: AuditActor, email: string) => setOperator(deps, actor, email, false),
  };
}

export type Takedowns = ReturnType<typeof takedowns>;
