import type { Redis } from 'ioredis';
import type { LinkEvents } from '../../core/ports/shared-state.ts';
import { RedisCircuit } from './circuit.ts';

/**
 * Link changes announced to every instance on one Redis channel. A change announced while Redis is
 * unreachable is lost to the others: they bound it with the cache's TTL, and drop everything they
 * cached once their own subscription is back (a reconnect means they may have missed some).
 */
export class RedisLinkEvents implements LinkEvents {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #channel: string;
  readonly #circuit: RedisCircuit;
  readonly #handlers: Array<(code: string) => void> = [];
  readonly #missedHandlers: Array<() => void> = [];
  readonly #onMessage = (channel: string, code: string) => {
    if (channel === this.#channel) this.#tell(code);
  };
  // After a reconnect ioredis subscribes again; once the server confirms, nothing more can be missed.
  readonly #onReady = () => {
    this.#subscriber.subscribe(this.#channel).then(
      () => {
        for (const handler of this.#missedHandlers) handler();
      },
      () => {},
    );
  };

  private constructor(redis: Redis, subscriber: Redis, prefix: string, circuit: RedisCircuit) {
    this.#redis = redis;
    this.#circuit = circuit;
    this.#subscriber = subscriber;
    this.#channel = `${prefix}link-changed`;
  }

  static async open(
    redis: Redis,
    subscriber: Redis,
    prefix: string,
    circuit = new RedisCircuit(),
  ): Promise<RedisLinkEvents> {
    const events = new RedisLinkEvents(redis, subscriber, prefix, circuit);
    subscriber.on('message', events.#onMessage);
    await subscriber.subscribe(events.#channel);
    subscriber.on('ready', events.#onReady);
    return events;
  }

  async changed(code: string): Promise<void> {
    // Drop it here at once; the others hear it through the channel (and this one again, harmlessly).
    this.#tell(code);
    // While Redis fails the change is lost to the others, not to this request: it is not waited for.
    await this.#circuit.call(
      async () => void (await this.#redis.publish(this.#channel, code)),
      async () => {},
    );
  }

  onChanged(handler: (code: string) => void): void {
    this.#handlers.push(handler);
  }

  onMissed(handler: () => void): void {
    this.#missedHandlers.push(handler);
  }

  #tell(code: string): void {
    for (const handler of this.#handlers) handler(code);
  }

  async close(): Promise<void> {
    this.#subscriber.off('message', this.#onMessage);
    this.#subscriber.off('ready', this.#onReady);
    await this.#subscriber.unsubscribe(this.#channel).catch(() => {});
  }
}
