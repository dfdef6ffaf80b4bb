import type { ClientContext, Redis, Result } from 'ioredis';
import { UnavailableError } from '../../core/errors.ts';
import type { Window, WindowCounter } from '../../core/ports/shared-state.ts';

// INCR and set the expiry on first use, in one round trip and atomically (one key: Cluster-safe).
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
return count`;

// DECR only a counter that exists and is above zero: a window that ended is not started again.
const DECREMENT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

declare module 'ioredis' {
  interface RedisCommander<Context extends ClientContext = { type: 'default' }> {
    snipIncrement(key: string, expiresAtMs: number): Result<number, Context>;
    snipDecrement(key: string): Result<number, Context>;
  }
}

/** Window counters shared by every instance. Key names keep the caller's {hash tag}. */
export class RedisWindowCounter implements WindowCounter {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
    redis.defineCommand('snipIncrement', { numberOfKeys: 1, lua: INCREMENT });
    redis.defineCommand('snipDecrement', { numberOfKeys: 1, lua: DECREMENT });
  }

  #key(key: string, window: Window): string {
    return `${this.#prefix}${key}:${window.start}`;
  }

  async increment(key: string, window: Window): Promise<number> {
    try {
      // Kept a little past the window's end so a slow clock on another instance still finds it.
      return Number(await this.#redis.snipIncrement(this.#key(key, window), window.end + 60_000));
    } catch (error) {
      throw new UnavailableError('The shared rate-limit store is unreachable; nothing was done.', 5, {
        cause: error,
      });
    }
  }

  async peek(key: string, window: Window): Promise<number> {
    try {
      return Number((await this.#redis.get(this.#key(key, window))) ?? 0);
    } catch (error) {
      throw new UnavailableError('The shared rate-limit store is unreachable; nothing was done.', 5, {
        cause: error,
      });
    }
  }

  async decrement(key: string, window: Window): Promise<void> {
    try {
      await this.#redis.snipDecrement(this.#key(key, window));
    } catch (error) {
      throw new UnavailableError('The shared rate-limit store is unreachable; nothing was done.', 5, {
        cause: error,
      });
    }
  }
}
