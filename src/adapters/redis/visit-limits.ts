import type { ClientContext, Redis, Result } from 'ioredis';
import { UnavailableError } from '../../core/errors.ts';
import type { LimitedLink, VisitLimits } from '../../core/ports/visit-limits.ts';

// Both the counter and the store's figure (human clicks, flushed a second late) are lower bounds of
// the visits taken, so the larger is used: a counter left from a limit since removed and set again
// then counts from the link's clicks. Takes one only while some are left: one key, one round trip,
// atomic; the count never passes the limit.
const TAKE = `
local taken = tonumber(ARGV[2])
local counted = redis.call('GET', KEYS[1])
if counted and tonumber(counted) > taken then taken = tonumber(counted) end
if taken >= tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], taken, 'EX', ARGV[3])
  return 0
end
redis.call('SET', KEYS[1], taken + 1, 'EX', ARGV[3])
return 1`;

declare module 'ioredis' {
  interface RedisCommander<Context extends ClientContext = { type: 'default' }> {
    snipTakeVisit(key: string, max: number, taken: number, ttlSeconds: number): Result<number, Context>;
  }
}

/** A counter idle this long is dropped; the next visit starts it again from the store's count. */
const IDLE_SECONDS = 30 * 86_400;

/** Visit limits counted in Redis, shared by every instance (docs/api.md §8.2). */
export class RedisVisitLimits implements VisitLimits {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
    redis.defineCommand('snipTakeVisit', { numberOfKeys: 1, lua: TAKE });
  }

  #key(link: LimitedLink): string {
    return `${this.#prefix}visits:{${link.id}}`;
  }

  async take(link: LimitedLink): Promise<boolean> {
    try {
      return (
        (await this.#redis.snipTakeVisit(this.#key(link), link.maxClicks, link.taken, IDLE_SECONDS)) === 1
      );
    } catch (error) {
      throw new UnavailableError('The shared visit counter is unreachable; nothing was counted.', 5, {
        cause: error,
      });
    }
  }

  async exhausted(link: LimitedLink): Promise<boolean> {
    try {
      const taken = await this.#redis.get(this.#key(link));
      return Math.max(link.taken, Number(taken ?? 0)) >= link.maxClicks;
    } catch (error) {
      throw new UnavailableError('The shared visit counter is unreachable.', 5, { cause: error });
    }
  }
}
