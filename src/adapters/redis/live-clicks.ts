import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { LiveClick } from '../../core/ports/live-clicks.ts';
import { LocalLiveClicks } from '../memory/live-clicks.ts';
import { RedisCircuit } from './circuit.ts';

/** How often an instance says again which workspaces it has live listeners of. */
const ANNOUNCE_MS = 10_000;
/** How long another instance believes an announcement: a few missed ones end it. */
const BELIEVED_MS = 3 * ANNOUNCE_MS;

/** The workspace of a question: which workspaces does anyone listen to? */
const WHO_LISTENS = -1;

/** One message on the channel: clicks of a workspace (`c`), or without them, "I listen to it". */
interface Message {
  f: string;
  w: number;
  c?: LiveClick[];
}

/**
 * Live clicks across a fleet (docs/adr/043): one Redis channel. An instance with listeners of a
 * workspace says so on the channel at once and every ANNOUNCE_MS; an instance publishes a
 * workspace's clicks only while someone is believed to listen, so a fleet nobody watches sends
 * nothing. Its own listeners are told at once, not through Redis; while Redis is down the others
 * miss the clicks (a live view, not a record).
 */
export class RedisLiveClicks extends LocalLiveClicks {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #channel: string;
  readonly #circuit: RedisCircuit;
  readonly #self = randomBytes(8).toString('hex');
  /** Workspaces listened to on other instances, and until when that is believed. */
  readonly #elsewhere = new Map<number, number>();
  readonly #timer: NodeJS.Timeout;
  readonly #now: () => number;
  readonly #onMessage = (channel: string, text: string) => {
    if (channel !== this.#channel) return;
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch {
      return;
    }
    if (message.f === this.#self || typeof message.w !== 'number') return;
    if (message.w === WHO_LISTENS) this.#announce();
    else if (Array.isArray(message.c)) this.tell(message.w, message.c);
    else this.#elsewhere.set(message.w, this.#now() + BELIEVED_MS);
  };

  private constructor(
    redis: Redis,
    subscriber: Redis,
    prefix: string,
    circuit: RedisCircuit,
    now: () => number,
  ) {
    super();
    this.#redis = redis;
    this.#subscriber = subscriber;
    this.#channel = `${prefix}live-clicks`;
    this.#circuit = circuit;
    this.#now = now;
    this.#timer = setInterval(() => this.#announce(), ANNOUNCE_MS);
    this.#timer.unref();
  }

  static async open(
    redis: Redis,
    subscriber: Redis,
    prefix: string,
    circuit = new RedisCircuit(),
    now: () => number = Date.now,
  ): Promise<RedisLiveClicks> {
    const clicks = new RedisLiveClicks(redis, subscriber, prefix, circuit, now);
    subscriber.on('message', clicks.#onMessage);
    await subscriber.subscribe(clicks.#channel);
    // A new instance asks at once rather than wait for the next announcements.
    clicks.#send({ f: clicks.#self, w: WHO_LISTENS });
    return clicks;
  }

  override publish(workspaceId: number, clicks: readonly LiveClick[]): void {
    this.tell(workspaceId, clicks);
    if (this.#heardElsewhere(workspaceId)) this.#send({ f: this.#self, w: workspaceId, c: [...clicks] });
  }

  override heard(workspaceId: number): boolean {
    return super.heard(workspaceId) || this.#heardElsewhere(workspaceId);
  }

  override get anyHeard(): boolean {
    return super.anyHeard || this.#elsewhere.size > 0;
  }

  protected override firstListener(workspaceId: number): void {
    this.#send({ f: this.#self, w: workspaceId });
  }

  #announce(): void {
    for (const workspaceId of this.listened) this.#send({ f: this.#self, w: workspaceId });
  }

  #heardElsewhere(workspaceId: number): boolean {
    const until = this.#elsewhere.get(workspaceId);
    if (until === undefined) return false;
    if (until > this.#now()) return true;
    this.#elsewhere.delete(workspaceId);
    return false;
  }

  #send(message: Message): void {
    const text = JSON.stringify(message);
    void this.#circuit.call(
      async () => void (await this.#redis.publish(this.#channel, text)),
      async () => {},
    );
  }

  override async close(): Promise<void> {
    clearInterval(this.#timer);
    await super.close();
    this.#subscriber.off('message', this.#onMessage);
    await this.#subscriber.unsubscribe(this.#channel).catch(() => {});
  }
}
