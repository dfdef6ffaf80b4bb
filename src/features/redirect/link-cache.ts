import { LRUCache } from 'lru-cache';
import type { Link } from '../../core/entities.ts';

/** What a redirect needs of a link; nothing more is kept in memory. */
export interface CachedLink {
  id: number;
  /** The long URL as an ASCII Location value (punycode host, percent-encoded). */
  location: string;
}

export interface LinkCacheOptions {
  /** Links kept at most (least recently used go first). */
  max: number;
  /** How long an unknown code is remembered as unknown. */
  missTtlMs: number;
}

const MISSING = Symbol('missing');

/**
 * Hot links in memory (bounded LRU). A hit is synchronous; a miss reads the store once even when many
 * requests for the same cold code arrive together (they share one pending load).
 */
export class LinkCache {
  readonly #entries: LRUCache<string, CachedLink | typeof MISSING>;
  readonly #pending = new Map<string, Promise<CachedLink | undefined>>();
  readonly #load: (code: string) => Promise<CachedLink | undefined>;
  readonly #missTtlMs: number;
  hits = 0;
  misses = 0;

  constructor(load: (code: string) => Promise<CachedLink | undefined>, options: LinkCacheOptions) {
    this.#load = load;
    this.#missTtlMs = options.missTtlMs;
    this.#entries = new LRUCache({ max: options.max, ttlAutopurge: false });
  }

  /** The cached link, `null` for a code known not to exist, `undefined` when not cached. */
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
      .then((link) => {
        // A change made while this load ran invalidated the code: don't cache a stale answer.
        if (this.#pending.get(code) === loading) {
          if (link) this.#entries.set(code, link);
          else this.#entries.set(code, MISSING, { ttl: this.#missTtlMs });
        }
        return link;
      })
      .finally(() => {
        if (this.#pending.get(code) === loading) this.#pending.delete(code);
      });
    this.#pending.set(code, loading);
    return loading;
  }

  /** Remember a link just stored: new links are usually clicked soon after they are shared. */
  remember(code: string, link: CachedLink): void {
    this.#pending.delete(code);
    this.#entries.set(code, link);
  }

  /** Forget a code after its link was created, changed or deleted. */
  invalidate(code: string): void {
    this.#entries.delete(code);
    this.#pending.delete(code);
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** What the cache keeps of a link: its id (for counting) and its Location, computed once. */
export function cachedLink(link: Link): CachedLink {
  return { id: link.id, location: new URL(link.longUrl).href };
}

/** The hot-link cache over a store's look-up by code; unknown codes are remembered for 5 s. */
export function linkCacheOver(findLinkByCode: (code: string) => Promise<Link | undefined>, max: number) {
  return new LinkCache(
    async (code) => {
      const link = await findLinkByCode(code);
      return link && cachedLink(link);
    },
    { max, missTtlMs: 5000 },
  );
}
