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
  lapsedBefore,
  type TxtResolver,
} from './domain-rules.ts';

/** What a change reads: the registry reloaded, a domain the actor may change, a domain a workspace may use. */
interface Reads {
  refresh(): Promise<void>;
  owned(actor: DomainActor, hostInput: unknown, claimant?: number): Promise<Domain>;
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

  const ownDomain = (actor: DomainActor, hostInput: unknown, claimant?: number) =>
    reads.owned(actor, hostInput, claimant);

  /** The other workspaces' claims a served host dropped are told (domain-notices.ts). */
  const served = async (domain: Domain, dropped: readonly Domain[]) => {
    await changed();
    for (const claim of dropped) await deps.claimDropped?.(claim);
    return domain;
  };

  return {
    /**
     * Adds a domain: a workspace's own (verified later), or the operator's, shared (verified at once)
     * or for a workspace. BASE_URL's host, a host verified already and a host the workspace claims
     * already are 317; a claim past DOMAINS_PENDING_MAX is 300. Other workspaces' claims on the host
     * take nothing from anyone: the first to verify it wins.
     */
    async add(hostInput: unknown, owner: { workspace: Workspace | null; shared: boolean }): Promise<Domain> {
      const host = hostFrom(hostInput);
      if (registry.isDefault(host)) throw new Refusal('317', 'That is the default domain.');
      const at = deps.now();
      const domain = {
        host,
        workspaceId: owner.shared ? null : (owner.workspace?.id ?? null),
        shared: owner.shared,
        verificationToken: `snip-verify-${randomBytes(16).toString('hex')}`,
        verified: owner.shared,
      };
      const limits = { at: new Date(at), expiredBefore: lapsedBefore(at), max: deps.pendingMax };
      const result = await store.addDomain(domain, limits);
      if (result.kind === 'taken') throw new Refusal('317', 'That domain has been added already.');
      if (result.kind === 'too-many-pending') {
        throw new Refusal(
          '300',
          `A workspace holds at most ${deps.pendingMax} unverified domains: verify or remove one first.`,
        );
      }
      return served(result.domain, result.dropped);
    },

    /**
     * Verifies a domain: the workspace's by its TXT record; the operator's word alone. Answers the
     * domain as it is now (still unverified when the record is not there yet).
     */
    async verify(actor: DomainActor, hostInput: unknown, claimant?: number): Promise<Domain> {
      const domain = await ownDomain(actor, hostInput, claimant);
      if (domain.verifiedAt !== null) return domain;
      if (actor !== null && !(await recordFound(deps.resolveTxt, domain))) return domain;
      const result = await store.verifyDomain(domain.id, new Date(deps.now()));
      if (result.kind === 'not-found') throw new Refusal('314');
      if (result.kind === 'taken') throw new Refusal('317', 'Another workspace has verified that domain.');
      return served(result.domain, result.dropped);
    },

    /** Its https and redirects; the operator may change the default domain's too. */
    async update(
      actor: DomainActor,
      hostInput: unknown,
      change: DomainChange,
      claimant?: number,
    ): Promise<Domain> {
      const domain =
        actor === null && registry.hostNamed(hostInput) === registry.defaultHost
          ? (registry.byId(DEFAULT_DOMAIN_ID) as Domain)
          : await ownDomain(actor, hostInput, claimant);
      const updated = await store.updateDomain(domain.id, change);
      if (!updated) throw new Refusal('314');
      await changed();
      return registry.byId(updated.id) ?? updated;
    },

    /** Removes a domain without live links (409 `318` otherwise). */
    async remove(actor: DomainActor, hostInput: unknown, claimant?: number): Promise<void> {
      const domain = await ownDomain(actor, hostInput, claimant);
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
