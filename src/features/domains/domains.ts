import { randomBytes } from 'node:crypto';
import { domainHost } from '../../core/domain-host.ts';
import type { Domain, Workspace } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { DEFAULT_DOMAIN_ID } from '../../core/link-key.ts';
import type { DomainChange, DomainStore } from '../../core/ports/domain-store.ts';
import type { DomainRegistry } from './domain-registry.ts';

/**
 * Domains (docs/api.md §12): the default one, the operator's shared ones and each workspace's own,
 * which serves links once its TXT record is found (or an operator vouches for it). The API, the
 * pages, the CLI and link creation all go through here; every change reloads this instance's
 * registry and tells the others.
 */

/** The TXT record a workspace creates to prove the domain is theirs. */
export const CHALLENGE_LABEL = '_snip-challenge';

/** Looks up TXT records (node:dns/promises resolveTxt's shape); injected, tests never query real DNS. */
export type TxtResolver = (name: string) => Promise<string[][]>;

/** A domain as a workspace sees it, with its live links there. */
export interface DomainView {
  domain: Domain;
  /** The workspace's own (it may change and remove it). */
  own: boolean;
  links: number;
}

export interface DomainsDeps {
  store: DomainStore;
  registry: DomainRegistry;
  resolveTxt: TxtResolver;
  /** Tells the other instances that the domains changed (they reload theirs). */
  announce: () => Promise<void>;
}

/** Who acts on domains: a workspace (its admins, by the API or the pages), or the operator (null). */
export type DomainActor = Workspace | null;

const URL_MAX_LENGTH = 2048;

/** A root or not-found redirect: an absolute http(s) URL, or null to clear it. */
export function redirectTarget(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || value.length === 0 || value.length > URL_MAX_LENGTH) {
    throw new Refusal('300', 'A redirect is an absolute http or https URL, or null.');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Refusal('300', 'A redirect is an absolute http or https URL, or null.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Refusal('300', 'A redirect is an absolute http or https URL, or null.');
  }
  return url.href;
}

/** A host as typed, in its stored form; a name that cannot be a domain is 300. */
export function hostFrom(value: unknown): string {
  if (typeof value !== 'string') throw new Refusal('300', 'A domain is a host name, such as go.example.com.');
  const checked = domainHost(value);
  if (!checked.ok) {
    throw new Refusal(
      '300',
      `"${value.slice(0, 80)}" is not a host name a domain can have (${checked.reason}).`,
    );
  }
  return checked.host;
}

const usable = (domain: Domain, workspaceId: number): boolean =>
  domain.verifiedAt !== null &&
  (domain.id === DEFAULT_DOMAIN_ID || domain.shared || domain.workspaceId === workspaceId);

const visible = (domain: Domain, workspaceId: number): boolean =>
  domain.id === DEFAULT_DOMAIN_ID ||
  (domain.shared && domain.verifiedAt !== null) ||
  domain.workspaceId === workspaceId;

export function domainsService(deps: DomainsDeps) {
  const { store, registry } = deps;

  async function refresh(): Promise<void> {
    const [domains, defaults] = await Promise.all([store.listDomains(), store.listDefaultDomains()]);
    registry.load(domains, defaults);
  }

  async function changed(): Promise<void> {
    await refresh();
    await deps.announce();
  }

  /** The domain of that host, as the store has it now when this instance's view does not know it. */
  async function current(host: string): Promise<Domain | undefined> {
    const known = registry.byHost(host);
    if (known?.verifiedAt) return known;
    await refresh();
    return registry.byHost(host);
  }

  /** A domain the actor may change: the workspace's own, or any but the default for the operator. */
  async function ownDomain(actor: DomainActor, hostInput: unknown): Promise<Domain> {
    const host = hostFrom(hostInput);
    const domain = await current(host);
    if (!domain || (actor === null ? false : domain.workspaceId !== actor.id)) {
      if (domain && actor && visible(domain, actor.id)) throw new Refusal('317');
      throw new Refusal('314');
    }
    return domain;
  }

  async function viewOf(workspace: Workspace, domain: Domain): Promise<DomainView> {
    const counts = await store.countLinksPerDomain(workspace.id);
    return { domain, own: domain.workspaceId === workspace.id, links: counts.get(domain.id) ?? 0 };
  }

  return {
    refresh,
    registry,

    /** The domains a workspace sees: the default, the shared ones, and its own in any state. */
    async list(workspace: Workspace): Promise<DomainView[]> {
      const counts = await store.countLinksPerDomain(workspace.id);
      return registry
        .all()
        .filter((domain) => visible(domain, workspace.id))
        .map((domain) => ({
          domain,
          own: domain.workspaceId === workspace.id,
          links: counts.get(domain.id) ?? 0,
        }));
    },

    /** Every domain, for the operator. */
    all: () => registry.all(),

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
      const id = hostInput === null ? DEFAULT_DOMAIN_ID : await usableId(workspaceId, hostInput);
      await store.setDefaultDomain(workspaceId, id === DEFAULT_DOMAIN_ID ? null : registry.hostOf(id));
      await changed();
    },

    /** The domain a new link goes on: the one named (usable by the workspace, else 317), or its default. */
    forNewLink: (workspaceId: number, hostInput: unknown): Promise<number> =>
      hostInput === undefined ? Promise.resolve(defaultOf(workspaceId)) : usableId(workspaceId, hostInput),

    /**
     * The domain an existing link is addressed on (`?domain=`): one the workspace sees (else 317), or
     * its default domain when none is named.
     */
    addressed(workspaceId: number, hostInput: unknown): number {
      if (hostInput === undefined || hostInput === '') return defaultOf(workspaceId);
      const checked = typeof hostInput === 'string' ? domainHost(hostInput) : undefined;
      const domain = checked?.ok ? registry.byHost(checked.host) : undefined;
      if (!domain || !visible(domain, workspaceId)) throw new Refusal('317');
      return domain.id;
    },

    /** A host that is one of Snip's domains (a link to it would loop). */
    isOwnHost: (host: string): boolean => registry.byHost(host.toLowerCase()) !== undefined,

    /** Whether a proxy may get a certificate for the host: a verified domain Snip serves. */
    async tlsAllowed(hostInput: unknown): Promise<boolean> {
      const checked = typeof hostInput === 'string' ? domainHost(hostInput) : undefined;
      if (!checked?.ok) return false;
      if (checked.host === registry.defaultHost) return true;
      const domain = await current(checked.host);
      return domain !== undefined && domain.verifiedAt !== null;
    },

    viewOf,
  };

  function defaultOf(workspaceId: number): number {
    const chosen = registry.byId(registry.chosenDefault(workspaceId));
    return chosen && usable(chosen, workspaceId) ? chosen.id : DEFAULT_DOMAIN_ID;
  }

  async function usableId(workspaceId: number, hostInput: unknown): Promise<number> {
    const checked = typeof hostInput === 'string' ? domainHost(hostInput) : undefined;
    if (!checked?.ok) throw new Refusal('317');
    if (checked.host === registry.defaultHost) return DEFAULT_DOMAIN_ID;
    const domain = await current(checked.host);
    if (!domain || !usable(domain, workspaceId)) throw new Refusal('317');
    return domain.id;
  }
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

export type DomainsService = ReturnType<typeof domainsService>;
