import type { User } from '../../core/entities.ts';
import { CLI_ACTOR, type NewAuditEntry, NO_AUDIT, type RecordAudit } from '../../core/moderation.ts';
import type { AuditStore } from '../../core/ports/abuse-store.ts';
import type { Authenticated } from '../../core/ports/key-auth.ts';
import type { AccountStore, KeyStore } from '../../core/ports/store.ts';

/**
 * Who the audit log (docs/api.md §13) names for a workspace admin's action, as each surface knows
 * them: the signed-in user, the API key's maker (or the key itself, by its prefix, when the operator
 * made it), or the operator's command line.
 */

/** Who acts, as an audit entry names them. */
export type Auditor = Pick<NewAuditEntry, 'actorId' | 'actor'>;

/** What an entry says besides who acted. */
export type AuditFact = Omit<NewAuditEntry, 'actorId' | 'actor'>;

/** An entry about a workspace (null: the instance): what was done to what, before and after. */
export const auditFact = (
  workspaceId: number | null,
  action: string,
  target: string,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): AuditFact => ({ workspaceId, action, target, before, after });

/** A signed-in user, by their email. */
export const userAuditor = (user: Pick<User, 'id' | 'email'>): Auditor => ({
  actorId: user.id,
  actor: user.email,
});

/** The user of that id by their email (their id when it cannot be read); the command line for none. */
async function auditorOfUser(
  users: Pick<AccountStore, 'findUserById'>,
  userId: number | null,
): Promise<Auditor> {
  if (userId === null) return CLI_ACTOR;
  const user = await users.findUserById(userId).catch(() => undefined);
  return { actorId: userId, actor: user?.email ?? `user ${userId}` };
}

/** Who acts in an /api/v1 request: the key's maker by their email; a key the operator made, by its prefix. */
export async function apiAuditor(
  store: Pick<AccountStore & KeyStore, 'findUserById' | 'listLiveKeys'>,
  caller: Authenticated,
): Promise<Auditor> {
  if (caller.maker.userId !== null) return auditorOfUser(store, caller.maker.userId);
  const { keyId, workspaceId } = caller.actor;
  const key = (await store.listLiveKeys(workspaceId)).find((one) => one.id === keyId);
  return { actorId: null, actor: `key ${key?.prefix ?? keyId}` };
}

/** Someone acting on a workspace's members or keys: a user (or the operator: null), named as told. */
export interface AuditedActing {
  userId: number | null;
  /** How the audit log names them; untold: the user of `userId` by their email, or "cli". */
  by?: Auditor;
}

/**
 * Records an entry for whoever acts; the acting user's email is read only when there is a log to
 * write. Like the recorder it wraps, it never fails the action.
 */
export function auditTrail(audit: RecordAudit, users: Pick<AccountStore, 'findUserById'>) {
  return async (acting: AuditedActing, fact: AuditFact): Promise<void> => {
    if (audit === NO_AUDIT) return;
    const who = acting.by ?? (await auditorOfUser(users, acting.userId));
    await audit({ ...fact, ...who });
  };
}

/** The operator's commands' recorder: a log that cannot be written is told on stderr; the change stands. */
export function cliAudit(
  store: Pick<AuditStore, 'addAudit'>,
  err: { write(text: string): unknown },
): RecordAudit {
  return (entry) =>
    store.addAudit(entry).catch((error: unknown) => {
      err.write(`snip: the audit log could not be written: ${String(error)}\n`);
    });
}
