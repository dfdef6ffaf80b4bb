import type { DeliveryAttempt, EventPublisher, WebhookSender } from '../../core/ports/event-sinks.ts';
import type {
  ClaimedDelivery,
  DeliveryOutcome,
  DisablePolicy,
  WebhookEndpoint,
  WebhookStore,
} from '../../core/ports/webhook-store.ts';
import { retryAt } from './retry-schedule.ts';

/** Waits for `work` to settle, at most `ms`. */
async function settled(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

/** Outcomes held at most while the store cannot record them. */
const MAX_HELD_OUTCOMES = 10_000;

export interface DispatcherOptions {
  store: WebhookStore;
  sender: WebhookSender;
  /** The operator's stream (EVENTS_AMQP_URL); without it, stream deliveries wait and retry. */
  publisher?: EventPublisher;
  retryBaseMs: number;
  policy: DisablePolicy;
  /** The first wait between looks when nothing woke this instance; default 1 s. */
  pollMs?: number;
  /** The longest wait between looks: each look that finds nothing doubles the wait up to it; default 30 s. */
  maxPollMs?: number;
  /** Deliveries under way at once; default 32. */
  concurrency?: number;
  /**
   * How long a claimed delivery is this instance's alone; past the sender's deadline, and renewed
   * every third of it while its outcome is not recorded. Default 60 s.
   */
  leaseMs?: number;
  now?: () => number;
  /** Told of each attempt (metrics). */
  onAttempt?: (kind: 'endpoint' | 'stream', attempt: DeliveryAttempt) => void;
  /** Told of each endpoint disabled for failing, so its admins hear of it. */
  onDisabled?: (endpoint: WebhookEndpoint) => void;
  /** Told of the deliveries waiting, read at each look (the outbox's bound). */
  onPending?: (pending: number) => void;
  onError: (what: string) => (error: unknown) => void;
}

/**
 * Works off the outbox (docs/api.md §14): claims due deliveries (any instance may; a claim is a
 * lease, so an instance that dies mid-delivery leaves it to be tried again with the same
 * webhook-id), sends each to its endpoint or publishes it to the stream, and records the outcomes
 * in batches. A slow receiver holds one of `concurrency` slots for at most the sender's deadline and
 * never anything a request waits on.
 */
export class Dispatcher {
  readonly #o: Required<Omit<DispatcherOptions, 'publisher' | 'onAttempt' | 'onDisabled' | 'onPending'>> &
    DispatcherOptions;
  #inFlight = 0;
  #outcomes: DeliveryOutcome[] = [];
  #finishing: Promise<void> = Promise.resolve();
  #finishQueued = false;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  /** The last look found work: a slot coming free looks again. */
  #full = false;
  #stopped = false;
  #idle: Array<() => void> = [];
  /** The wait before the next look when it finds nothing again (back-off). */
  #waitMs: number;
  /** Claims whose outcome is not recorded yet, by delivery id: their leases are renewed. */
  readonly #held = new Map<number, number>();
  #renewer: NodeJS.Timeout | undefined;
  #unwatch: Promise<(() => Promise<void>) | undefined> = Promise.resolve(undefined);

  constructor(options: DispatcherOptions) {
    // An option given as undefined keeps its default (a spread would have set it to undefined).
    const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    this.#o = {
      pollMs: 1000,
      maxPollMs: 30_000,
      concurrency: 32,
      leaseMs: 60_000,
      now: Date.now,
      ...(given as unknown as DispatcherOptions),
    };
    this.#waitMs = this.#o.pollMs;
  }

  start(): void {
    this.#schedule(0);
    // Deliveries written elsewhere (another instance, a command) wake this one where the store tells.
    const watching = this.#o.store.watchOutbox?.(() => this.wake());
    this.#unwatch = (watching ?? Promise.resolve(undefined)).catch((error: unknown) => {
      this.#o.onError('listening for the webhook outbox failed; it is polled')(error);
      return undefined;
    });
  }

  /** Something was queued: look now rather than at the next poll, and poll often again. */
  wake(): void {
    if (this.#stopped) return;
    this.#waitMs = this.#o.pollMs;
    if (this.#running) this.#again = true;
    else this.#schedule(0);
  }

  /**
   * Stops claiming; waits up to `graceMs` for the look under way and the deliveries out, and as
   * long again to record their outcomes. A store or receiver that does not answer never holds a
   * shutdown: a delivery left unrecorded is tried again once its claim runs out, with the same
   * webhook-id.
   */
  async stop(graceMs = 1000): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    clearInterval(this.#renewer);
    await settled(
      this.#unwatch.then((unwatch) => unwatch?.()),
      graceMs,
    );
    const idle = this.#inFlight === 0 ? undefined : new Promise<void>((resolve) => this.#idle.push(resolve));
    await settled(Promise.all([this.#running, idle]), graceMs);
    await settled(this.#flushOutcomes(), graceMs);
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#running = this.#run().then(
        (nextMs) => this.#next(nextMs),
        () => this.#next(this.#o.pollMs),
      );
    }, ms);
    this.#timer.unref();
  }

  #next(nextMs: number): void {
    this.#running = undefined;
    if (this.#stopped) return;
    const again = this.#again;
    this.#again = false;
    this.#schedule(again ? 0 : nextMs);
  }

  /** One look: claims while slots are free and due work is found; answers the wait before the next. */
  async #run(): Promise<number> {
    const { store, pollMs } = this.#o;
    try {
      this.#o.onPending?.(await store.pendingDeliveries());
      let claimedAny = false;
      while (!this.#stopped) {
        const room = this.#o.concurrency - this.#inFlight;
        if (room <= 0) {
          this.#full = true;
          return pollMs;
        }
        const claimed = await store.claimDeliveries(this.#o.now(), room, this.#o.leaseMs);
        for (const delivery of claimed) void this.#deliver(delivery);
        if (claimed.length > 0) claimedAny = true;
        if (claimed.length < room) break;
      }
      if (claimedAny) {
        // More may be due than this look got (other instances held some): look again as slots free.
        this.#full = true;
        this.#waitMs = pollMs;
        return pollMs;
      }
      // Nothing due: wait longer each time, but never past the soonest retry or lease's end.
      const wait = this.#waitMs;
      this.#waitMs = Math.min(this.#o.maxPollMs, wait * 2);
      const nextAt = await store.nextDeliveryAt();
      return nextAt === null ? wait : Math.min(wait, Math.max(pollMs, nextAt - this.#o.now()));
    } catch (error) {
      this.#o.onError('reading the webhook outbox failed; tried again at the next poll')(error);
      return pollMs;
    }
  }

  /** Keeps the leases of the claims not recorded yet, so no other instance sends them meanwhile. */
  #renewLeases(): void {
    if (this.#renewer !== undefined || this.#stopped) return;
    this.#renewer = setInterval(
      () => {
        if (this.#held.size === 0) {
          clearInterval(this.#renewer);
          this.#renewer = undefined;
          return;
        }
        const held = [...this.#held].map(([id, attempt]) => ({ id, attempt }));
        this.#o.store
          .renewDeliveries(held, this.#o.now() + this.#o.leaseMs)
          .catch(this.#o.onError('renewing the webhook deliveries under way failed'));
      },
      Math.max(10, Math.floor(this.#o.leaseMs / 3)),
    );
    this.#renewer.unref();
  }

  async #deliver(delivery: ClaimedDelivery): Promise<void> {
    this.#inFlight++;
    this.#held.set(delivery.id, delivery.attempts);
    this.#renewLeases();
    try {
      const attempt = await this.#attempt(delivery);
      this.#o.onAttempt?.(delivery.endpointId === null ? 'stream' : 'endpoint', attempt);
      const now = this.#o.now();
      this.#outcomes.push({
        id: delivery.id,
        attempt: delivery.attempts,
        endpointId: delivery.endpointId,
        ok: attempt.ok,
        statusCode: attempt.status,
        durationMs: Math.round(attempt.durationMs),
        error: attempt.error ?? null,
        retryAt: attempt.ok ? null : retryAt(delivery.attempts, now, this.#o.retryBaseMs),
      });
      this.#queueFinish();
    } finally {
      this.#inFlight--;
      if (this.#inFlight === 0) for (const resolve of this.#idle.splice(0)) resolve();
      // A slot came free: claim again if the last look found more than there was room for.
      if (this.#full) {
        this.#full = false;
        this.wake();
      }
    }
  }

  async #attempt(delivery: ClaimedDelivery): Promise<DeliveryAttempt> {
    const message = { id: delivery.messageId, type: delivery.type, body: delivery.body };
    if (delivery.endpointId !== null) {
      if (delivery.url === null || delivery.secret === null)
        return { ok: false, status: null, durationMs: 0, error: 'the endpoint is gone' };
      return this.#o.sender.send(delivery.url, delivery.secret, message);
    }
    const started = performance.now();
    const publisher = this.#o.publisher;
    if (!publisher) return { ok: false, status: null, durationMs: 0, error: 'no event stream is set up' };
    try {
      await publisher.publish(message);
      return { ok: true, status: null, durationMs: performance.now() - started };
    } catch {
      return {
        ok: false,
        status: null,
        durationMs: performance.now() - started,
        error: 'the broker refused',
      };
    }
  }

  #queueFinish(): void {
    if (this.#finishQueued) return;
    this.#finishQueued = true;
    setImmediate(() => {
      this.#finishQueued = false;
      void this.#flushOutcomes();
    });
  }

  /** Records the outcomes gathered so far in one transaction; flushes never overlap. */
  #flushOutcomes(): Promise<void> {
    this.#finishing = this.#finishing.then(async () => {
      if (this.#outcomes.length === 0) return;
      const outcomes = this.#outcomes;
      this.#outcomes = [];
      try {
        const disabled = await this.#o.store.finishDeliveries(outcomes, this.#o.now(), this.#o.policy);
        for (const outcome of outcomes)
          if (this.#held.get(outcome.id) === outcome.attempt) this.#held.delete(outcome.id);
        for (const endpoint of disabled) this.#o.onDisabled?.(endpoint);
      } catch (error) {
        // Kept and recorded again in a second (recording twice changes nothing); past the bound, the
        // oldest are given up and sent again, with the same webhook-id, once their claims run out.
        const kept = outcomes.concat(this.#outcomes);
        for (const given of kept.slice(0, -MAX_HELD_OUTCOMES)) this.#held.delete(given.id);
        this.#outcomes = kept.slice(-MAX_HELD_OUTCOMES);
        setTimeout(() => this.#queueFinish(), 1000).unref();
        this.#o.onError('recording webhook deliveries failed; tried again in a second')(error);
      }
    });
    return this.#finishing;
  }
}
