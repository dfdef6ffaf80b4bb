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

/** Host headers remembered at most; past this the memory starts again (random hosts cost no more). */
const MEMO_MAX = 10_000;
/** The longest Host header remembered: a host of 253 characters and a port. */
const MEMO_KEY_MAX = 260;

/**
 * Every domain in memory: the redirect finds the one a request's Host names with one map look-up,
 * however many there are, and each link's short URL is printed from its domain's. Loaded at start,
 * again when a change is heard (from this instance or another) and at a steady interval.
 */
export class DomainRegistry {
  readonly #base: URL;
  readonly #defaultHost: string;
  #byId = new Map<number, Domain>();
  #byHost = new Map<string, Domain>();
  #served = new Map<number, ServedDomain>();
  #defaults = new Map<number, number>();
  readonly #memo = new Map<string, ServedDomain | null>();

  constructor(baseUrl: URL) {
    this.#base = baseUrl;
    this.#defaultHost = baseUrl.hostname.toLowerCase().replace(/\.$/, '');
    this.load([]);
  }

  /** BASE_URL's host: the default domain's, and no other domain's. */
  get defaultHost(): string {
    return this.#defaultHost;
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
      byHost.set(domain.host, domain);
      if (domain.verifiedAt === null) continue;
      served.set(domain.id, {
        id: domain.id,
        keyPrefix: linkKeyPrefix(domain.id),
        rootRedirect: domain.rootRedirect,
        notFoundRedirect: domain.notFoundRedirect,
      });
    }
    this.#byId = byId;
    this.#byHost = byHost;
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
    const host = name.direct ? this.#defaultHost : name.host;
    const domain = this.#byHost.get(host);
    const found = (domain && this.#served.get(domain.id)) ?? null;
    // Only what could be a host is remembered: a long header would make the memory an attacker's.
    if (key.length <= MEMO_KEY_MAX) {
      if (this.#memo.size >= MEMO_MAX) this.#memo.clear();
      this.#memo.set(key, found);
    }
    return found ?? undefined;
  }

  /** A domain not removed, verified or not; the default one under BASE_URL's host. */
  byHost(host: string): Domain | undefined {
    return this.#byHost.get(host);
  }

  /**
   * A host as typed (any case, IDN, trailing dot) in its stored form: BASE_URL's host as it is (it may
   * be localhost or an address, which no added domain could be), any other in its ASCII form;
   * undefined for what no domain could be named.
   */
  hostNamed(input: unknown): string | undefined {
    if (typeof input !== 'string') return undefined;
    if (input.trim().toLowerCase().replace(/\.$/, '') === this.#defaultHost) return this.#defaultHost;
    const checked = domainHost(input);
    return checked.ok ? checked.host : undefined;
  }

  /** The id of the domain a host names as typed; 317 for none such. */
  idOf(input: string): number {
    const host = this.hostNamed(input);
    const domain = host === undefined ? undefined : this.#byHost.get(host);
    if (!domain) throw new Refusal('317', `No domain is ${input.slice(0, 80)}.`);
    return domain.id;
  }

  byId(id: number): Domain | undefined {
    return this.#byId.get(id);
  }

  /** The domain a workspace chose for links that name none (verified or not); the default domain's id else. */
  chosenDefault(workspaceId: number): number {
    return this.#defaults.get(workspaceId) ?? DEFAULT_DOMAIN_ID;
  }

  /** Every domain known, the default one first. */
  all(): Domain[] {
    return [...this.#byId.values()];
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
