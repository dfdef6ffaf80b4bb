import type { Window, WindowCounter } from '../../core/ports/shared-state.ts';

const SWEEP_EVERY_MS = 60_000;

/** Window counters of one process, swept as windows end. */
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

  async decrement(key: string, window: Window): Promise<void> {
    const entry = this.#counts.get(key);
    if (entry && entry.start === window.start && entry.count > 0) entry.count -= 1;
  }

  /** Drops finished windows so memory stays bounded by the keys active now. */
  #sweep(now: number): void {
    if (now - this.#lastSweep < SWEEP_EVERY_MS) return;
    this.#lastSweep = now;
    for (const [key, entry] of this.#counts) if (entry.end <= now) this.#counts.delete(key);
  }
}
