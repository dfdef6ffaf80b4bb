import type { KeyStore, KeyUse } from '../../core/ports/store.ts';

export interface KeyUsesOptions {
  intervalMs: number;
  now?: () => number;
  onError?: (error: unknown) => void;
}

/**
 * When each key was last used (docs/api.md §7.1), kept in memory and written in one batch per
 * interval, like clicks: a request never waits on a store write for it. A failed write keeps the
 * uses for the next flush; close() writes what is left.
 */
export class KeyUses {
  readonly #store: Pick<KeyStore, 'touchKeys'>;
  readonly #options: KeyUsesOptions;
  readonly #now: () => number;
  #pending = new Map<number, number>();
  #timer: NodeJS.Timeout;
  #flushing: Promise<void> = Promise.resolve();

  constructor(store: Pick<KeyStore, 'touchKeys'>, options: KeyUsesOptions) {
    this.#store = store;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#timer = setInterval(() => void this.flush(), options.intervalMs);
    this.#timer.unref();
  }

  /** A request got through with this key now. */
  note(keyId: number): void {
    if (keyId > 0) this.#pending.set(keyId, this.#now());
  }

  /** Writes the uses gathered so far; flushes never overlap. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#write());
    return this.#flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }

  async #write(): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch: KeyUse[] = [...this.#pending].map(([keyId, at]) => ({ keyId, at }));
    this.#pending = new Map();
    try {
      await this.#store.touchKeys(batch);
    } catch (error) {
      // Kept for the next flush, unless a later use came in meanwhile.
      for (const { keyId, at } of batch) if (!this.#pending.has(keyId)) this.#pending.set(keyId, at);
      this.#options.onError?.(error);
    }
  }
}
