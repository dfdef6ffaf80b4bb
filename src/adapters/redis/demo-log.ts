import type { Redis } from 'ioredis';
import { UnavailableError } from '../../core/errors.ts';
import { DEMO_LOG_SIZE, type DemoLogEntry } from '../../core/ports/shared-state.ts';
import { DemoLogFeed } from '../memory/demo-log-feed.ts';

/**
 * The demo log shared by every instance: a capped list for GET /demo/log and a channel so each
 * instance's event streams see entries made on any instance. One key, so it runs on Redis Cluster.
 */
export class RedisDemoLog extends DemoLogFeed {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #key: string;
  readonly #channel: string;
  readonly #onMessage: (channel: string, message: string) => void;

  private constructor(redis: Redis, subscriber: Redis, prefix: string) {
    super();
    this.#redis = redis;
    this.#subscriber = subscriber;
    this.#key = `${prefix}{demo}:log`;
    this.#channel = `${prefix}demo-log`;
    this.#onMessage = (channel, message) => {
      if (channel !== this.#channel) return;
      this.emit(JSON.parse(message) as DemoLogEntry);
    };
  }

  static async open(redis: Redis, subscriber: Redis, prefix: string): Promise<RedisDemoLog> {
    const log = new RedisDemoLog(redis, subscriber, prefix);
    subscriber.on('message', log.#onMessage);
    await subscriber.subscribe(log.#channel);
    return log;
  }

  async append(entry: DemoLogEntry): Promise<void> {
    const text = JSON.stringify(entry);
    await this.#redis
      .multi()
      .lpush(this.#key, text)
      .ltrim(this.#key, 0, DEMO_LOG_SIZE - 1)
      .publish(this.#channel, text)
      .exec();
  }

  async recent(): Promise<DemoLogEntry[]> {
    let items: string[];
    try {
      items = await this.#redis.lrange(this.#key, 0, DEMO_LOG_SIZE - 1);
    } catch (error) {
      throw new UnavailableError('The shared demo log is unreachable.', 5, { cause: error });
    }
    return items.map((item) => JSON.parse(item) as DemoLogEntry);
  }

  override async close(): Promise<void> {
    await super.close();
    this.#subscriber.off('message', this.#onMessage);
    await this.#subscriber.unsubscribe(this.#channel).catch(() => {});
  }
}
