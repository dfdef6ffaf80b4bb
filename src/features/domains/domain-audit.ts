import type { Domain, Workspace } from '../../core/entities.ts';
import { DEFAULT_DOMAIN_ID } from '../../core/link-key.ts';
import type { NewAuditEntry, RecordAudit } from '../../core/moderation.ts';
import type { DomainChange } from '../../core/ports/domain-store.ts';
import type { domainChanges } from './domain-changes.ts';
import type { DomainRegistry } from './domain-registry.ts';
import type { DomainActor } from './domain-rules.ts';

/**
 * The audit log of domain changes (docs/api.md §13): each change, once it succeeded, recorded with
 * who made it, the host the target and its settings before and after (never its TXT token):
 * domain.add, domain.verify, domain.update, domain.remove and domain.default. A change that changed
 * nothing (a domain verified already, the same settings, the same default) records nothing.
 */

/** Who acts, as the audit log names them: a user by their email, a key by its prefix, or "cli". */
export type DomainAuditor = Pick<NewAuditEntry, 'actorId' | 'actor'>;

type Changes = ReturnType<typeof domainChanges>;

interface AuditReads {
  owned(actor: DomainActor, hostInput: unknown, claimant?: number): Promise<Domain>;
  registry: DomainRegistry;
}

/** A domain's settings as the API names them. */
const settingsOf = (domain: Domain) => ({
  verified: domain.verifiedAt !== null,
  https: domain.https,
  root_redirect: domain.rootRedirect,
  not_found_redirect: domain.notFoundRedirect,
});

/** Only the settings that differ, before and after; undefined when none does. */
function difference(before: Domain, after: Domain) {
  const [was, now] = [settingsOf(before), settingsOf(after)];
  const keys = (Object.keys(now) as (keyof typeof now)[]).filter((key) => was[key] !== now[key]);
  if (keys.length === 0) return undefined;
  const pick = (from: typeof now) => Object.fromEntries(keys.map((key) => [key, from[key]]));
  return { before: pick(was), after: pick(now) };
}

/** The domain changes, each taking who acts last and recording what it changed. */
export function auditedChanges(changes: Changes, reads: AuditReads, audit: RecordAudit) {
  const { registry } = reads;
  const record = (
    by: DomainAuditor,
    domain: Domain,
    action: string,
    change: Omit<NewAuditEntry, 'actorId' | 'actor' | 'workspaceId' | 'action' | 'target'>,
  ) => audit({ ...by, workspaceId: domain.workspaceId, action, target: domain.host, ...change });
  const domainNow = async (actor: DomainActor, hostInput: unknown, claimant?: number) => {
    return actor === null && registry.hostNamed(hostInput) === registry.defaultHost
      ? registry.byId(DEFAULT_DOMAIN_ID)
      : reads.owned(actor, hostInput, claimant);
  };

  return {
    async add(
      hostInput: unknown,
      owner: { workspace: Workspace | null; shared: boolean },
      by: DomainAuditor,
    ) {
      const domain = await changes.add(hostInput, owner);
      await record(by, domain, 'domain.add', { before: null, after: settingsOf(domain) });
      return domain;
    },

    /** `claimant`: the operator's choice among several workspaces' claims on the host. */
    async verify(actor: DomainActor, hostInput: unknown, by: DomainAuditor, claimant?: number) {
      const before = await domainNow(actor, hostInput, claimant);
      const domain = await changes.verify(actor, hostInput, claimant);
      if (before?.verifiedAt === null && domain.verifiedAt !== null) {
        await record(by, domain, 'domain.verify', { before: { verified: false }, after: { verified: true } });
      }
      return domain;
    },

    async update(
      actor: DomainActor,
      hostInput: unknown,
      change: DomainChange,
      by: DomainAuditor,
      claimant?: number,
    ) {
      const before = await domainNow(actor, hostInput, claimant);
      const domain = await changes.update(actor, hostInput, change, claimant);
      const changed = before && difference(before, domain);
      if (changed) await record(by, domain, 'domain.update', changed);
      return domain;
    },

    async remove(actor: DomainActor, hostInput: unknown, by: DomainAuditor, claimant?: number) {
      const before = await domainNow(actor, hostInput, claimant);
      await changes.remove(actor, hostInput, claimant);
      if (before) await record(by, before, 'domain.remove', { before: settingsOf(before), after: null });
    },

    async setDefault(workspaceId: number, hostInput: unknown, by: DomainAuditor) {
      const chosen = () => registry.hostOf(registry.chosenDefault(workspaceId));
      const before = chosen();
      await changes.setDefault(workspaceId, hostInput);
      const after = chosen();
      if (after === before) return;
      const fact = { workspaceId, action: 'domain.default', target: after };
      await audit({ ...by, ...fact, before: { default_domain: before }, after: { default_domain: after } });
    },
  };
}
