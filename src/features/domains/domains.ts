import type { Domain, Workspace } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { DEFAULT_DOMAIN_ID } from '../../core/link-key.ts';
import { NO_AUDIT } from '../../core/moderation.ts';
import { auditedChanges } from './domain-audit.ts';
import { domainChanges } from './domain-changes.ts';
import {
  type DomainActor,
  type DomainsDeps,
  type DomainView,
  hostFrom,
  lapsedBefore,
  usable,
  visible,
} from './domain-rules.ts';

/**
 * Domains (docs/api.md §12): the default one, the operator's shared ones and each workspace's own,
 * which serves links once its TXT record is found (or an operator vouches for it). The API, the
 * pages, the CLI and link creation all go through here; every change reloads this instance's
 * registry and tells the others.
 */

/** Domains as a workspace sees them, with its live links on each. */
function domainViews({ store, registry }: DomainsDeps) {
  const viewsOf = async (workspace: Workspace, domains: readonly Domain[]): Promise<DomainView[]> => {
    const counts = await store.countLinksPerDomain(workspace.id);
    const own = (domain: Domain) => domain.workspaceId === workspace.id;
    return domains.map((domain) => ({ domain, own: own(domain), links: counts.get(domain.id) ?? 0 }));
  };
  return {
    /** The domains a workspace sees: the default, the shared ones, and its own in any state. */
    list: (workspace: Workspace): Promise<DomainView[]> =>
      viewsOf(
        workspace,
        registry.all().filter((domain) => visible(domain, workspace.id)),
      ),

    /** Every domain, for the operator. */
    all: () => registry.all(),

    async viewOf(workspace: Workspace, domain: Domain): Promise<DomainView> {
      return (await viewsOf(workspace, [domain]))[0] as DomainView;
    },
  };
}

/** What every surface reads: the registry kept fresh, and the domain a link goes on or is found on. */
function domainReads(deps: DomainsDeps) {
  const { store, registry } = deps;

  async function refresh(): Promise<void> {
    const [domains, defaults] = await Promise.all([store.listDomains(), store.listDefaultDomains()]);
    registry.load(domains, defaults);
  }

  /**
   * The domain of that host (the one it serves, else the workspace's claim on it), as the store has
   * it now when this instance's view does not know it verified.
   */
  async function current(host: string, workspaceId?: number): Promise<Domain | undefined> {
    const known = registry.byHost(host, workspaceId);
    if (known?.verifiedAt) return known;
    await refresh();
    return registry.byHost(host, workspaceId);
  }

  /**
   * A domain the actor may change: the workspace's own (a domain it sees but does not own is 317,
   * one it does not see 314); for the operator, the host's verified domain, else its one claim —
   * the claim of the workspace `claimant` names when several workspaces claim the host (300 without).
   */
  async function owned(actor: DomainActor, hostInput: unknown, claimant?: number): Promise<Domain> {
    const host = hostFrom(hostInput);
    if (actor !== null) {
      const domain = await current(host, actor.id);
      if (domain?.workspaceId === actor.id) return domain;
      throw new Refusal(domain && visible(domain, actor.id) ? '317' : '314');
    }
    const served = await current(host);
    if (served) {
      if (claimant === undefined || served.workspaceId === claimant) return served;
      throw new Refusal('317', 'Another workspace has verified that domain.');
    }
    const claims = registry
      .claimsOf(host)
      .filter((claim) => claimant === undefined || claim.workspaceId === claimant);
    if (claims.length > 1) {
      throw new Refusal('300', `Several workspaces claim ${host}: name one (--workspace).`);
    }
    if (!claims[0]) throw new Refusal('314');
    return claims[0];
  }

  function defaultOf(workspaceId: number): number {
    const chosen = registry.byId(registry.chosenDefault(workspaceId));
    return chosen && usable(chosen, workspaceId) ? chosen.id : DEFAULT_DOMAIN_ID;
  }

  async function usableId(workspaceId: number, hostInput: unknown): Promise<number> {
    const host = registry.hostNamed(hostInput);
    if (host === undefined) throw new Refusal('317');
    if (host === registry.defaultHost) return DEFAULT_DOMAIN_ID;
    const domain = await current(host, workspaceId);
    if (!domain || !usable(domain, workspaceId)) throw new Refusal('317');
    return domain.id;
  }

  /** Deletes the claims that expired (and the removed ones), then reads the domains again; how many went. */
  async function purgeExpiredClaims(): Promise<number> {
    const gone = await store.purgeExpiredClaims(lapsedBefore(deps.now()));
    if (gone > 0) await refresh();
    return gone;
  }

  return {
    refresh,
    current,
    owned,
    usableId,
    purgeExpiredClaims,
    registry,

    ...domainViews(deps),
    /** The domain a new link goes on: the one named (usable by the workspace, else 317), or its default. */
    forNewLink: (workspaceId: number, hostInput: unknown): Promise<number> =>
      hostInput === undefined ? Promise.resolve(defaultOf(workspaceId)) : usableId(workspaceId, hostInput),

    /**
     * The domain an existing link is addressed on (`?domain=`): one the workspace sees (else 317), or
     * its default domain when none is named.
     */
    addressed(workspaceId: number, hostInput: unknown): number {
      if (hostInput === undefined || hostInput === '') return defaultOf(workspaceId);
      const host = registry.hostNamed(hostInput);
      const domain = host === undefined ? undefined : registry.byHost(host, workspaceId);
      if (!domain || !visible(domain, workspaceId)) throw new Refusal('317');
      return domain.id;
    },

    /** The hosts a workspace's new links may go on (the default domain's first), and the one they go on unless told. */
    choices(workspaceId: number): { hosts: string[]; chosen: string } {
      const hosts = registry.all().filter((domain) => usable(domain, workspaceId));
      return { hosts: hosts.map((domain) => domain.host), chosen: registry.hostOf(defaultOf(workspaceId)) };
    },

    /**
     * An added domain Snip serves links on (a link to it would loop); a pending claim blocks nobody's
     * links. BASE_URL's own is told by its host and port where links are checked (core/target-url.ts).
     */
    isOwnHost(host: string): boolean {
      const domain = registry.byHost(host.toLowerCase());
      return domain !== undefined && domain.id !== DEFAULT_DOMAIN_ID && domain.verifiedAt !== null;
    },

    /** Whether a proxy may get a certificate for the host: a verified domain Snip serves. */
    async tlsAllowed(hostInput: unknown): Promise<boolean> {
      const host = registry.hostNamed(hostInput);
      if (host === undefined) return false;
      if (host === registry.defaultHost) return true;
      const domain = await current(host);
      return domain !== undefined && domain.verifiedAt !== null;
    },
  };
}

/** Reads and changes; each change takes who acts last, for the audit log (domain-audit.ts). */
export function domainsService(deps: DomainsDeps) {
  const reads = domainReads(deps);
  return { ...reads, ...auditedChanges(domainChanges(deps, reads), reads, deps.audit ?? NO_AUDIT) };
}

export type DomainReads = ReturnType<typeof domainReads>;

export type DomainsService = ReturnType<typeof domainsService>;

export type { DomainAuditor } from './domain-audit.ts';
export {
  CHALLENGE_LABEL,
  CLAIM_TTL_MS,
  type DomainActor,
  type DomainView,
  hostFrom,
  redirectTarget,
  type TxtResolver,
} from './domain-rules.ts';
