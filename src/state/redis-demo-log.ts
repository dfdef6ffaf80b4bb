import type { Redis } from 'ioredis';
import { DEMO_LOG_SIZE, type DemoLog, type DemoLogEntry, EntryListeners } from './demo-log.ts';

/**
 * The demo log shared by every instance: a capped list for GET /demo/log and a channel so each
 * instance's event streams see entries made on any instance. One key, so it runs on Redis Cluster.
 */
export class RedisDemoLog implements DemoLog {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #key: string;
  readonly #channel: string;
  readonly #listeners = new EntryListeners();
  readonly #onMessage: (channel: string, message: string) => void;

  private constructor(redis: Redis, subscriber: Redis, prefix: string) {
    this.#redis = redis;
    this.#subscriber = subscriber;
    this.#key = `${prefix}{demo}:log`;
    this.#channel = `${prefix}demo-log`;
    this.#onMessage = (channel, message) => {
      if (channel !== this.#channel) return;
      this.#listeners.emit(JSON.parse(message) as DemoLogEntry);
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
    const items = await this.#redis.lrange(this.#key, 0, DEMO_LOG_SIZE - 1);
    return items.map((item) => JSON.parse(item) as DemoLogEntry);
  }

  subscribe(listener: (entry: DemoLogEntry) => void): () => void {
    return this.#listeners.add(listener);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    this.#subscriber.off('message', this.#onMessage);
    await this.#subscriber.unsubscribe(this.#channel).catch(() => {});
  }
}
