import { LRUCache } from 'lru-cache';
import { ruleHost } from '../../core/blocklist-format.ts';
import { UnavailableError } from '../../core/errors.ts';
import { linkKey, parseLinkKey } from '../../core/link-key.ts';
import type { RedirectLink } from '../../core/ports/link-code-store.ts';
import { extrasOf, type LinkExtras } from './link-extras.ts';
import { guardOf, type LinkGuard } from './link-guard.ts';

/** What a redirect needs of a link; nothing more is kept in memory. */
export interface CachedLink {
  id: number;
  /** Its account, for the account's analytics. */
  workspaceId: number;
  /** The long URL as an ASCII Location value (punycode host, percent-encoded). */
  location: string;
  /** Its expiry, visit limit, password and targeting; absent for a plain link. */
  guard?: LinkGuard;
  /** Query forwarding and a preview card; absent for a link with neither (most). */
  extras?: LinkExtras;
  /** The hosts it sends visitors to (its URL's, its rules', its variants'), in blocklist form: the redirect checks them. */
  hosts: readonly string[];
  /** The screen's remembered answer for its hosts (features/abuse), and the rules it was for. */
  screenedUnder?: number;
  blocked?: boolean;
}

export interface LinkCacheOptions {
  /** Links kept at most (least recently used go first). */
  max: number;
  /**
   * How long a cached link is trusted (LINK_CACHE_TTL_SECONDS): a change whose announcement was lost
   * (Redis down) is seen at the latest when the entry is read again.
   */
  ttlMs: number;
  /** How long an unknown code is remembered as unknown. */
  missTtlMs: number;
}

const MISSING = Symbol('missing');
/** After a failed re-read, a stale link is served again for this long before the store is tried anew. */
const STALE_RETRY_MS = 5000;

/**
 * Hot links in memory by their key (domain and code, core/link-key.ts; bounded LRU, each entry
 * trusted for a while). A hit is synchronous; a miss
 * reads the store once even when many requests for the same cold code arrive together (they share
 * one pending load). When the store cannot answer, a link whose entry has only expired is still
 * served: a change needs the store too, and redirects keep working while it is down.
 */
export class LinkCache {
  readonly #entries: LRUCache<string, CachedLink | typeof MISSING>;
  readonly #pending = new Map<string, Promise<CachedLink | undefined>>();
  /** The alias keys cached for a link's key: a change to the link, announced under its code, drops them too. */
  readonly #aliases = new Map<string, Set<string>>();
  readonly #load: (code: string) => Promise<CachedLink | undefined>;
  readonly #missTtlMs: number;
  hits = 0;
  misses = 0;

  constructor(load: (code: string) => Promise<CachedLink | undefined>, options: LinkCacheOptions) {
    this.#load = load;
    this.#missTtlMs = options.missTtlMs;
    this.#entries = new LRUCache({
      // Bounded by a count of 1 per entry rather than `max`, which allocates its arrays for every
      // entry at start: ~4.5 MB for 100,000 links that an idle server does not hold (docs/adr/053).
      maxSize: options.max,
      sizeCalculation: () => 1,
      ttl: options.ttlMs,
      ttlAutopurge: false,
      // An expired entry stays until it is read again, as the fallback while the store is down.
      noDeleteOnStaleGet: true,
    });
  }

  /** The cached link, `null` for a code known not to exist, `undefined` when not cached (or expired). */
  peek(code: string): CachedLink | null | undefined {
    const entry = this.#entries.get(code);
    if (entry === undefined) return undefined;
    this.hits++;
    return entry === MISSING ? null : entry;
  }

  load(code: string): Promise<CachedLink | undefined> {
    const pending = this.#pending.get(code);
    if (pending) return pending;
    this.misses++;
    const loading = this.#load(code)
      .then(
        (link) => {
          // A change made while this load ran invalidated the code: don't cache a stale answer.
          if (this.#pending.get(code) === loading) {
            if (link) this.#entries.set(code, link);
            else this.#entries.set(code, MISSING, { ttl: this.#missTtlMs });
          }
          return link;
        },
        (error: unknown) => {
          const stale = this.#entries.get(code, { allowStale: true });
          const fallback = error instanceof UnavailableError && this.#pending.get(code) === loading;
          if (!fallback || stale === undefined || stale === MISSING) throw error;
          this.#entries.set(code, stale, { ttl: STALE_RETRY_MS });
          return stale;
        },
      )
      .finally(() => {
        if (this.#pending.get(code) === loading) this.#pending.delete(code);
      });
    this.#pending.set(code, loading);
    return loading;
  }

  /** A synchronous store's answer for a code that was not cached, kept as a load's would be. */
  settle(code: string, link: CachedLink | undefined): void {
    this.misses++;
    if (link) this.#entries.set(code, link);
    else this.#entries.set(code, MISSING, { ttl: this.#missTtlMs });
  }

  /** Remember a link just stored: new links are usually clicked soon after they are shared. */
  remember(code: string, link: CachedLink): void {
    this.#pending.delete(code);
    this.#entries.set(code, link);
  }

  /**
   * A key that reaches a link as its former code (an alias), loaded under that key: it is forgotten
   * with the link's own key. Called by the loader before its answer is kept.
   */
  noteAlias(aliasKey: string, linkKey: string): void {
    const aliases = this.#aliases.get(linkKey);
    if (aliases) aliases.add(aliasKey);
    else this.#aliases.set(linkKey, new Set([aliasKey]));
  }

  /** Forget a code after its link was created, changed or deleted, and the aliases cached for it. */
  invalidate(code: string): void {
    this.#entries.delete(code);
    this.#pending.delete(code);
    const aliases = this.#aliases.get(code);
    if (aliases === undefined) return;
    this.#aliases.delete(code);
    for (const alias of aliases) {
      this.#entries.delete(alias);
      this.#pending.delete(alias);
    }
  }

  /** Forget everything: changes may have been missed (the change subscription was down). */
  clear(): void {
    this.#entries.clear();
    this.#pending.clear();
    this.#aliases.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** What the cache keeps of a link: its ids (for counting), its Location, guard and extras, computed once. */
export function cachedLink(link: RedirectLink): CachedLink {
  const guard = guardOf(link);
  const target = new URL(link.longUrl);
  const location = target.href;
  const { id, workspaceId } = link;
  const hosts = targetHosts(target, link);
  const cached: CachedLink = guard
    ? { id, workspaceId, location, guard, hosts }
    : { id, workspaceId, location, hosts };
  // Added only where there are some: every other link keeps the shape the hot path knows.
  const extras = extrasOf(link);
  if (extras) cached.extras = extras;
  return cached;
}

/** The link's target hosts, its own first, each once (a plain link: one). */
function targetHosts(target: URL, link: RedirectLink): string[] {
  const hosts = new Set<string>();
  const others = [...link.rules, ...(link.test?.variants ?? [])].map((next) => URL.parse(next.url));
  for (const url of [target, ...others]) {
    const host = url && ruleHost(url.hostname);
    if (host) hosts.add(host);
  }
  return [...hosts];
}

/**
 * The hot-link cache over a store's look-up by domain and code; unknown codes are remembered for 5 s.
 * A code no link has is looked up once more as a renamed link's alias (only then: links without
 * aliases cost nothing more) and cached like a link, under the alias's key.
 */
export function linkCacheOver(
  findLinkByCode: (domainId: number, code: string) => Promise<RedirectLink | undefined>,
  options: { max: number; ttlMs: number },
  findLinkByAlias?: (domainId: number, code: string) => Promise<RedirectLink | undefined>,
) {
  const cache: LinkCache = new LinkCache(
    async (key) => {
      const { domainId, code } = parseLinkKey(key);
      const link = await findLinkByCode(domainId, code);
      if (link) return cachedLink(link);
      const renamed = await findLinkByAlias?.(domainId, code);
      if (!renamed) return undefined;
      cache.noteAlias(key, linkKey(renamed.domainId, renamed.code));
      return cachedLink(renamed);
    },
    { ...options, missTtlMs: 5000 },
  );
  return cache;
}
