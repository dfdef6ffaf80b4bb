import { randomBytes } from 'node:crypto';
import type { Domain, Workspace } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { DEFAULT_DOMAIN_ID } from '../../core/link-key.ts';
import type { DomainChange } from '../../core/ports/domain-store.ts';
import {
  CHALLENGE_LABEL,
  type DomainActor,
  type DomainsDeps,
  hostFrom,
  type TxtResolver,
  visible,
} from './domain-rules.ts';

/** What a change reads: the registry reloaded, a host as the store has it, a domain a workspace may use. */
interface Reads {
  refresh(): Promise<void>;
  current(host: string): Promise<Domain | undefined>;
  usableId(workspaceId: number, hostInput: unknown): Promise<number>;
}

/**
 * Changing domains (docs/api.md §12): adding, verifying, settings, removal and a workspace's default.
 * Every change reloads this instance's registry and tells the other instances.
 */
export function domainChanges(deps: DomainsDeps, reads: Reads) {
  const { store, registry } = deps;

  async function changed(): Promise<void> {
    await reads.refresh();
    await deps.announce();
  }

  const ownDomain = (actor: DomainActor, hostInput: unknown) => changeable(reads, actor, hostInput);

  return {
    /**
     * Adds a domain: a workspace's own (verified later), or the operator's, shared (verified at once)
     * or for a workspace. BASE_URL's host and a host already added are 317.
     */
    async add(hostInput: unknown, owner: { workspace: Workspace | null; shared: boolean }): Promise<Domain> {
      const host = hostFrom(hostInput);
      if (host === registry.defaultHost) throw new Refusal('317', 'That is the default domain.');
      const result = await store.addDomain({
        host,
        workspaceId: owner.shared ? null : (owner.workspace?.id ?? null),
        shared: owner.shared,
        verificationToken: `snip-verify-${randomBytes(16).toString('hex')}`,
        verified: owner.shared,
      });
      if (result.kind === 'taken') throw new Refusal('317', 'That domain has been added already.');
      await changed();
      return result.domain;
    },

    /**
     * Verifies a domain: the workspace's by its TXT record; the operator's word alone. Answers the
     * domain as it is now (still unverified when the record is not there yet).
     */
    async verify(actor: DomainActor, hostInput: unknown): Promise<Domain> {
      const domain = await ownDomain(actor, hostInput);
      if (domain.verifiedAt !== null) return domain;
      if (actor !== null && !(await recordFound(deps.resolveTxt, domain))) return domain;
      const verified = await store.updateDomain(domain.id, { verifiedAt: new Date() });
      if (!verified) throw new Refusal('314');
      await changed();
      return verified;
    },

    /** Its https and redirects; the operator may change the default domain's too. */
    async update(actor: DomainActor, hostInput: unknown, change: DomainChange): Promise<Domain> {
      const domain =
        actor === null && hostFrom(hostInput) === registry.defaultHost
          ? (registry.byId(DEFAULT_DOMAIN_ID) as Domain)
          : await ownDomain(actor, hostInput);
      const updated = await store.updateDomain(domain.id, change);
      if (!updated) throw new Refusal('314');
      await changed();
      return registry.byId(updated.id) ?? updated;
    },

    /** Removes a domain without live links (409 `318` otherwise). */
    async remove(actor: DomainActor, hostInput: unknown): Promise<void> {
      const domain = await ownDomain(actor, hostInput);
      const result = await store.removeDomain(domain.id);
      if (result === 'has-links') throw new Refusal('318');
      if (result === 'not-found') throw new Refusal('314');
      await changed();
    },

    /** The workspace's default domain for new links (one it may use, else 317); null: the default domain. */
    async setDefault(workspaceId: number, hostInput: unknown): Promise<void> {
      const id = hostInput === null ? DEFAULT_DOMAIN_ID : await reads.usableId(workspaceId, hostInput);
      await store.setDefaultDomain(workspaceId, id === DEFAULT_DOMAIN_ID ? null : registry.hostOf(id));
      await changed();
    },
  };
}

/** A domain the actor may change: the workspace's own, or any but the default for the operator. */
async function changeable(reads: Reads, actor: DomainActor, hostInput: unknown): Promise<Domain> {
  const domain = await reads.current(hostFrom(hostInput));
  if (!domain || (actor !== null && domain.workspaceId !== actor.id)) {
    if (domain && actor && visible(domain, actor.id)) throw new Refusal('317');
    throw new Refusal('314');
  }
  return domain;
}

/** Whether `_snip-challenge.<host>` holds the domain's token (a record's strings joined, as DNS splits them). */
async function recordFound(resolveTxt: TxtResolver, domain: Domain): Promise<boolean> {
  try {
    const records = await resolveTxt(`${CHALLENGE_LABEL}.${domain.host}`);
    return records.some((parts) => parts.join('').trim() === domain.verificationToken);
  } catch {
    // No such name, no record, a resolver failure: not verified yet.
    return false;
  }
}
