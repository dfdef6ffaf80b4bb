import type { Redis } from 'ioredis';
import type { LinkEvents } from '../../core/ports/shared-state.ts';

/** Link changes announced to every instance on one Redis channel. */
export class RedisLinkEvents implements LinkEvents {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #channel: string;
  #handler: (code: string) => void = () => {};
  readonly #onMessage = (channel: string, code: string) => {
    if (channel === this.#channel) this.#handler(code);
  };

  private constructor(redis: Redis, subscriber: Redis, prefix: string) {
    this.#redis = redis;
    this.#subscriber = subscriber;
    this.#channel = `${prefix}link-changed`;
  }

  static async open(redis: Redis, subscriber: Redis, prefix: string): Promise<RedisLinkEvents> {
    const events = new RedisLinkEvents(redis, subscriber, prefix);
    subscriber.on('message', events.#onMessage);
    await subscriber.subscribe(events.#channel);
    return events;
  }

  async changed(code: string): Promise<void> {
    // Drop it here at once; the others hear it through the channel (and this one again, harmlessly).
    this.#handler(code);
    await this.#redis.publish(this.#channel, code).catch(() => {});
  }

  onChanged(handler: (code: string) => void): void {
    this.#handler = handler;
  }

  async close(): Promise<void> {
    this.#subscriber.off('message', this.#onMessage);
    await this.#subscriber.unsubscribe(this.#channel).catch(() => {});
  }
}
