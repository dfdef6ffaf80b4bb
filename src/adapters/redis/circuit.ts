import { UnavailableError } from '../../core/errors.ts';

/**
 * Whether Redis is worth asking now (docs/adr/025): after a call fails, Redis is left alone for a
 * moment and what it would have answered comes from the fallback at once, so that a Redis that stops
 * answering costs each request nothing, not a deadline each. The next call after the pause asks again.
 */
export class RedisCircuit {
  readonly #pauseMs: number;
  readonly #now: () => number;
  #pausedUntil = 0;

  constructor(options: { pauseMs?: number; now?: () => number } = {}) {
    this.#pauseMs = options.pauseMs ?? 2000;
    this.#now = options.now ?? Date.now;
  }

  /** Redis is being left alone after a failure. */
  get paused(): boolean {
    return this.#now() < this.#pausedUntil;
  }

  /** Redis's answer, or UnavailableError at once while Redis fails or is paused. */
  async strict<T>(redis: () => Promise<T>): Promise<T> {
    return this.call(redis, async () => {
      throw new UnavailableError(
        'The shared state (Redis) cannot answer now.',
        Math.ceil(this.#pauseMs / 1000),
      );
    });
  }

  /** Redis's answer, or the fallback's while Redis fails or is paused. */
  async call<T>(redis: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    if (this.paused) return fallback();
    try {
      return await redis();
    } catch {
      this.#pausedUntil = this.#now() + this.#pauseMs;
      return fallback();
    }
  }
}
