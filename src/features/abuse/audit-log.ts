import type { NewAuditEntry } from '../../core/moderation.ts';
import type { AuditStore } from '../../core/ports/abuse-store.ts';

/** Who acts, as the audit log names them: a signed-in user, or the operator's command line. */
export interface AuditActor {
  actorId: number | null;
  actor: string;
}

/**
 * The audit log (docs/api.md §13): every operator action and every admin action in a workspace,
 * with actor, time, target and before/after. Recording never fails the action it records: a
 * store that cannot write is logged, and the action stands.
 */
export function auditLog(store: AuditStore, onError: (error: unknown) => void) {
  return {
    async record(actor: AuditActor, entry: Omit<NewAuditEntry, 'actorId' | 'actor'>): Promise<void> {
      await store.addAudit({ ...entry, ...actor }).catch(onError);
    },
    list: store.listAudit.bind(store),
  };
}

export type AuditLog = ReturnType<typeof auditLog>;
