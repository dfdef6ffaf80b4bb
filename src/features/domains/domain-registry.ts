import { domainHost, hostOfHeader } from '../../core/domain-host.ts';
import type { Domain } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { DEFAULT_DOMAIN_ID, linkKeyPrefix } from '../../core/link-key.ts';

/** What the link space needs of the domain a request's Host names. */
export interface ServedDomain {
  id: number;
  /** Its links' keys start with this (core/link-key.ts); '' on the default domain. */
  keyPrefix: string;
  /** `GET /` goes there; null: the landing page on the default domain, 404 elsewhere. */
  rootRedirect: string | null;
  /** An unknown code goes there; null: the 404 page. */
  notFoundRedirect: string | null;
}

/**
 * How long a workspace's claim on a host waits for its TXT record: an unverified domain this old no
 * longer counts, is no longer shown and is swept from the store.
 */
export const CLAIM_TTL_MS = 7 * 86_400_000;

/** Host headers remembered at most; past this the memory starts again (random hosts cost no more). */
const MEMO_MAX = 10_000;
/** The longest Host header remembered: a host of 253 characters and a port. */
const MEMO_KEY_MAX = 260;

/**
 * Every domain in memory: the redirect finds the one a request's Host names with one map look-up,
 * however many there are, and each link's short URL is printed from its domain's. Loaded at start,
 * again when a change is heard (from this instance or another) and at a steady interval.
 *
 * A host names at most one verified domain, the one it serves; the workspaces' claims on a host
 * (unverified domains, several workspaces may hold one each) are kept apart, each seen by its own
 * workspace only until it expires (CLAIM_TTL_MS), and never served.
 */
export class DomainRegistry {
  readonly #base: URL;
  readonly #now: () => number;
  /** BASE_URL's authority: its host, and its port when not the scheme's default. */
  readonly #defaultHost: string;
  /** BASE_URL's host alone, which a Host header or a typed name may carry without the port. */
  readonly #defaultName: string;
  #byId = new Map<number, Domain>();
  #byHost = new Map<string, Domain>();
  #claims = new Map<string, Domain[]>();
  #served = new Map<number, ServedDomain>();
  #defaults = new Map<number, number>();
  readonly #memo = new Map<string, ServedDomain | null>();

  constructor(baseUrl: URL, now: () => number = Date.now) {
    this.#now = now;
    this.#base = baseUrl;
    this.#defaultName = baseUrl.hostname.toLowerCase().replace(/\.$/, '');
    this.#defaultHost = baseUrl.port === '' ? this.#defaultName : `${this.#defaultName}:${baseUrl.port}`;
    this.load([]);
  }

  /**
   * BASE_URL's authority (`localhost:8080`, `sho.rt`): the default domain's host wherever a domain is
   * shown, and no other domain's.
   */
  get defaultHost(): string {
    return this.#defaultHost;
  }

  /** Whether a host (as stored, with or without BASE_URL's port) names the default domain. */
  isDefault(host: string): boolean {
    return host === this.#defaultHost || host === this.#defaultName;
  }

  /**
   * Replaces what is known by the store's lists: the domains (the default domain's row, id 0, among
   * them) and the workspaces' own choice of default domain.
   */
  load(
    domains: readonly Domain[],
    defaults: ReadonlyArray<{ workspaceId: number; host: string }> = [],
  ): void {
    const byId = new Map<number, Domain>();
    const byHost = new Map<string, Domain>();
    const claims = new Map<string, Domain[]>();
    const served = new Map<number, ServedDomain>();
    const stored = domains.find((domain) => domain.id === DEFAULT_DOMAIN_ID);
    const fallback: Domain = {
      id: DEFAULT_DOMAIN_ID,
      host: '',
      workspaceId: null,
      shared: true,
      verifiedAt: new Date(0),
      verificationToken: '',
      https: false,
      rootRedirect: null,
      notFoundRedirect: null,
      createdAt: new Date(0),
    };
    const https = this.#base.protocol === 'https:';
    const defaultDomain = { ...(stored ?? fallback), host: this.#defaultHost, https };
    for (const domain of [defaultDomain, ...domains.filter((d) => d.id !== DEFAULT_DOMAIN_ID)]) {
      byId.set(domain.id, domain);
      if (domain.verifiedAt === null) {
        claims.set(domain.host, [...(claims.get(domain.host) ?? []), domain]);
        continue;
      }
      byHost.set(domain.host, domain);
      served.set(domain.id, {
        id: domain.id,
        keyPrefix: linkKeyPrefix(domain.id),
        rootRedirect: domain.rootRedirect,
        notFoundRedirect: domain.notFoundRedirect,
      });
    }
    this.#byId = byId;
    this.#byHost = byHost;
    this.#claims = claims;
    this.#served = served;
    this.#defaults = new Map(
      defaults.flatMap(({ workspaceId, host }) => {
        const domain = byHost.get(host);
        return domain ? [[workspaceId, domain.id] as const] : [];
      }),
    );
    this.#memo.clear();
  }

  /**
   * The domain whose links a request's Host header reaches: the default one for BASE_URL's host and
   * for the server reached directly (an address, a name without a dot, no Host), a verified added
   * one by its host, undefined for any other host (its requests look no link up).
   */
  served(hostHeader: string | undefined): ServedDomain | undefined {
    const key = hostHeader ?? '';
    const memo = this.#memo.get(key);
    if (memo !== undefined) return memo ?? undefined;
    const name = hostOfHeader(hostHeader);
    const host = name.direct || name.host === this.#defaultName ? this.#defaultHost : name.host;
    const domain = this.#byHost.get(host);
    const found = (domain && this.#served.get(domain.id)) ?? null;
    // Only what could be a host is remembered: a long header would make the memory an attacker's.
    if (key.length <= MEMO_KEY_MAX) {
      if (this.#memo.size >= MEMO_MAX) this.#memo.clear();
      this.#memo.set(key, found);
    }
    return found ?? undefined;
  }

  /**
   * The domain a host names: the one it serves (the default one under BASE_URL's host), else, for a
   * workspace, its own claim on the host.
   */
  byHost(host: string, workspaceId?: number): Domain | undefined {
    const served = this.#byHost.get(host);
    if (served || workspaceId === undefined) return served;
    return this.claimsOf(host).find((claim) => claim.workspaceId === workspaceId);
  }

  /** The claims on a host not expired, oldest first. */
  claimsOf(host: string): Domain[] {
    return (this.#claims.get(host) ?? []).filter(this.#current);
  }

  /** A claim is current for CLAIM_TTL_MS after it was made. */
  readonly #current = (domain: Domain): boolean =>
    domain.verifiedAt !== null || domain.createdAt.getTime() > this.#now() - CLAIM_TTL_MS;

  /**
   * A host as typed (any case, IDN, trailing dot) in its stored form: BASE_URL's authority for it,
   * with or without its port (it may be localhost or an address, which no added domain could be), any
   * other in its ASCII form; undefined for what no domain could be named.
   */
  hostNamed(input: unknown): string | undefined {
    if (typeof input !== 'string') return undefined;
    if (this.isDefault(input.trim().toLowerCase().replace(/\.$/, ''))) return this.#defaultHost;
    const checked = domainHost(input);
    return checked.ok ? checked.host : undefined;
  }

  /** The id of the domain a host serves, named as typed; 317 for none such (a claim serves nothing). */
  idOf(input: string): number {
    const host = this.hostNamed(input);
    const domain = host === undefined ? undefined : this.#byHost.get(host);
    if (!domain) throw new Refusal('317', `No domain is ${input.slice(0, 80)}.`);
    return domain.id;
  }

  byId(id: number): Domain | undefined {
    return this.#byId.get(id);
  }

  /** The verified domain a workspace chose for links that name none; the default domain's id else. */
  chosenDefault(workspaceId: number): number {
    return this.#defaults.get(workspaceId) ?? DEFAULT_DOMAIN_ID;
  }

  /** Every domain known, the default one first; claims only until they expire. */
  all(): Domain[] {
    return [...this.#byId.values()].filter(this.#current);
  }

  /** Where a domain's short URLs start, without a trailing slash: BASE_URL's for the default domain. */
  origin(domainId: number): string {
    const domain = this.#byId.get(domainId);
    if (domainId === DEFAULT_DOMAIN_ID || domain === undefined) return this.#base.href.replace(/\/$/, '');
    return `${domain.https ? 'https' : 'http'}://${domain.host}`;
  }

  /** The host a link on the domain is shown under. */
  hostOf(domainId: number): string {
    return this.#byId.get(domainId)?.host ?? this.#defaultHost;
  }
}
