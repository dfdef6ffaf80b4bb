import type { Window } from '../domain/rate-window.ts';

/**
 * Counters per key and fixed window: the rate limit and the failed-key limiter count here.
 * In-process now; a Redis implementation shares them across instances.
 */
export interface WindowCounter {
  /** Adds one to the key's counter for this window and returns the new count. */
  increment(key: string, window: Window): Promise<number>;
  /** The key's count for this window, without adding. */
  peek(key: string, window: Window): Promise<number>;
}

const SWEEP_EVERY_MS = 60_000;

export class MemoryWindowCounter implements WindowCounter {
  readonly #counts = new Map<string, { start: number; end: number; count: number }>();
  #lastSweep = 0;

  async increment(key: string, window: Window): Promise<number> {
    this.#sweep(window.start);
    const entry = this.#counts.get(key);
    if (entry && entry.start === window.start) return ++entry.count;
    this.#counts.set(key, { start: window.start, end: window.end, count: 1 });
    return 1;
  }

  async peek(key: string, window: Window): Promise<number> {
    const entry = this.#counts.get(key);
    return entry && entry.start === window.start ? entry.count : 0;
  }

  /** Drops finished windows so memory stays bounded by the keys active now. */
  #sweep(now: number): void {
    if (now - this.#lastSweep < SWEEP_EVERY_MS) return;
    this.#lastSweep = now;
    for (const [key, entry] of this.#counts) if (entry.end <= now) this.#counts.delete(key);
  }
}
