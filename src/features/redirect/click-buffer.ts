import type { ClickCount } from '../../core/entities.ts';
import type { ClickStore } from '../../core/ports/store.ts';
import type { ClickKind } from './click-kind.ts';

const DAY_MS = 86_400_000;

export interface ClickBufferOptions {
  /** How often buffered counts are written; the redirect itself never waits on the store. */
  intervalMs: number;
  /** Links written per transaction; default 256. */
  chunkSize?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
}

/**
 * Counts clicks in memory and writes them in batches. A failed write keeps its counts for the next
 * flush, and close() flushes what is left, so no counted click is lost on a graceful shutdown.
 */
export class ClickBuffer {
  readonly #store: Pick<ClickStore, 'addClicks'>;
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  readonly #timer: NodeJS.Timeout;
  readonly #chunk: number;
  #pending = new Map<string, ClickCount>();
  #writing: Promise<void> = Promise.resolve();
  #day = '';
  #dayEnds = 0;
  flushed = 0;

  constructor(store: Pick<ClickStore, 'addClicks'>, options: ClickBufferOptions) {
    this.#store = store;
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError ?? (() => {});
    this.#chunk = options.chunkSize ?? 256;
    this.#timer = setInterval(() => void this.flush(), options.intervalMs);
    this.#timer.unref();
  }

  record(linkId: number, kind: ClickKind): void {
    const day = this.#today();
    const key = `${linkId}:${day}`;
    let count = this.#pending.get(key);
    if (!count) {
      count = { linkId, day, clicks: 0, botHits: 0 };
      this.#pending.set(key, count);
    }
    if (kind === 'human') count.clicks++;
    else count.botHits++;
  }

  /** Writes what is buffered now; flushes never overlap. */
  flush(): Promise<void> {
    this.#writing = this.#writing.then(() => this.#write());
    return this.#writing;
  }

  /** Stops the timer and writes what is left, retrying a store that fails for a moment. */
  async close(attempts = 3): Promise<void> {
    clearInterval(this.#timer);
    for (let attempt = 0; attempt < attempts && this.#pending.size > 0; attempt++) await this.flush();
  }

  get pendingLinks(): number {
    return this.#pending.size;
  }

  /**
   * Writes in chunks, letting the event loop run between them: an embedded store writes on the main
   * thread, and one transaction for thousands of links would stall every redirect meanwhile.
   */
  async #write(): Promise<void> {
    if (this.#pending.size === 0) return;
    const entries = [...this.#pending];
    this.#pending = new Map();
    for (let start = 0; start < entries.length; start += this.#chunk) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      const chunk = entries.slice(start, start + this.#chunk);
      try {
        await this.#store.addClicks(chunk.map(([, count]) => count));
        for (const [, count] of chunk) this.flushed += count.clicks;
      } catch (error) {
        this.#restore(entries.slice(start));
        this.#onError(error);
        return;
      }
    }
  }

  #restore(entries: Array<[string, ClickCount]>): void {
    for (const [key, count] of entries) {
      const newer = this.#pending.get(key);
      if (newer) {
        newer.clicks += count.clicks;
        newer.botHits += count.botHits;
      } else {
        this.#pending.set(key, count);
      }
    }
  }

  #today(): string {
    const now = this.#now();
    if (now >= this.#dayEnds || now < this.#dayEnds - DAY_MS) {
      this.#day = new Date(now).toISOString().slice(0, 10);
      this.#dayEnds = now - (now % DAY_MS) + DAY_MS;
    }
    return this.#day;
  }
}
