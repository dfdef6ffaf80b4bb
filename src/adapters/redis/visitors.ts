import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { UnavailableError } from '../../core/errors.ts';
import type { FirstSeen, VisitorMember, Visitors } from '../../core/ports/visitors.ts';

/** A day's keys outlive it by an hour: clicks of its last seconds are flushed after midnight. */
const GRACE_SECONDS = 3600;

/** When a day's keys go: the end of that UTC day and the grace, in epoch seconds. */
const expiryOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000 + 86_400 + GRACE_SECONDS;

/**
 * The visitors of every instance (docs/adr/018): the day's secret set once by whichever instance
 * asks first (SET NX), and exact sets of visitor ids per link and per account (SADD says whether a
 * member is new, so each first sighting is counted once however many instances see it).
 */
export class RedisVisitors implements Visitors {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #secrets = new Map<string, Buffer>();

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  async secretOf(day: string): Promise<Buffer> {
    const known = this.#secrets.get(day);
    if (known) return known;
    const candidate = randomBytes(32).toString('hex');
    const key = `${this.#prefix}visitors:{${day}}:secret`;
    // Set only when no instance has yet; GET hands back the one that was there first.
    const earlier = await this.#call(() =>
      this.#redis.set(key, candidate, 'EXAT', expiryOf(day), 'NX', 'GET'),
    );
    const secret = Buffer.from(earlier ?? candidate, 'hex');
    if (secret.length !== 32) throw new UnavailableError('The day secret could not be read.', 5);
    this.#secrets.set(day, secret);
    for (const old of [...this.#secrets.keys()].sort().slice(0, -2)) this.#secrets.delete(old);
    return secret;
  }

  async add(day: string, members: readonly VisitorMember[]): Promise<FirstSeen[]> {
    if (members.length === 0) return [];
    const pipeline = this.#redis.pipeline();
    const keys = new Set<string>();
    for (const { linkId, workspaceId, visitor } of members) {
      const link = `${this.#prefix}visitors:{${day}}:l:${linkId}`;
      const account = `${this.#prefix}visitors:{${day}}:a:${workspaceId}`;
      pipeline.sadd(link, visitor).sadd(account, visitor);
      keys.add(link).add(account);
    }
    for (const key of keys) pipeline.expireat(key, expiryOf(day));
    const results = await this.#call(() => pipeline.exec());
    return members.map((_, i) => ({
      ofLink: added(results?.[2 * i]),
      ofWorkspace: added(results?.[2 * i + 1]),
    }));
  }

  async #call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw new UnavailableError('The shared visitor sets are unreachable.', 5, { cause: error });
    }
  }
}

function added(result: [Error | null, unknown] | undefined): boolean {
  if (!result) throw new UnavailableError('The shared visitor sets answered short.', 5);
  if (result[0])
    throw new UnavailableError('The shared visitor sets refused a member.', 5, { cause: result[0] });
  return result[1] === 1;
}
