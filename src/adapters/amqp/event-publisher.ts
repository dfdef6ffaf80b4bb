import type { Socket } from 'node:net';
import type { ChannelModel, ConfirmChannel, Options } from 'amqplib';
import type { EventPublisher, OutboundMessage } from '../../core/ports/event-sinks.ts';

/** The durable topic exchange every event goes to, routed by its type (docs/api.md §14). */
export const EVENTS_EXCHANGE = 'snip.events';

/** Bounds reaching the broker (TCP and handshake), then again opening the channel and the exchange. */
const CONNECT_TIMEOUT_MS = 5_000;
/** How long close() waits for outstanding confirms, then for the broker to agree to close. */
const CLOSE_WAIT_MS = 2_000;
const DEFAULT_CONFIRM_TIMEOUT_MS = 10_000;

/** The broker publisher, with one seam for tests. */
export interface AmqpEventPublisher extends EventPublisher {
  /**
   * For tests: breaks the current connection's socket with an error, as a broker gone away would, and
   * resolves once the publisher has let that connection go. Does nothing when not connected.
   */
  dropConnection(): Promise<void>;
}

/** One connection with its confirm channel; a lost one is never reused. */
interface Link {
  model: ChannelModel;
  channel: ConfirmChannel;
  /** Set while the channel's buffer is full: writes wait for it to drain. */
  drained?: Promise<void>;
  /** Set once the connection or its channel went down: the next publish opens a new one. */
  lost: boolean;
  /** Set once the connection itself closed. */
  ended: boolean;
  /** Set when this publisher closes the connection itself: its events are then no one's error. */
  retiring: boolean;
  /** The error last passed on, so the close that follows an error does not report it twice. */
  reported?: unknown;
}

/**
 * An EventPublisher over RabbitMQ at `url`: persistent messages to the `snip.events` topic exchange,
 * each publish resolved only by the broker's confirm. It connects on the first publish; a lost
 * connection is reported to `onError` and replaced on the next publish, so an outage only makes
 * publishes reject (the outbox keeps their events and tries again) and never stops the process.
 */
export function amqpPublisher(options: {
  url: string;
  onError?: (error: unknown) => void;
  confirmTimeoutMs?: number;
}): AmqpEventPublisher {
  const confirmTimeoutMs = options.confirmTimeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS;
  const outstanding = new Set<Promise<void>>();
  let pending: Promise<Link> | undefined;
  let current: Link | undefined;
  let closed = false;
  const report = (error: unknown) => {
    try {
      options.onError?.(error);
    } catch {
      // A failing error handler must not turn a reported outage into a crash.
    }
  };

  /** The open connection, or the one attempt to open it that concurrent publishes share. */
  function link(): Promise<Link> {
    if (closed) return Promise.reject(new Error('The event publisher is closed.'));
    if (pending && !current?.lost) return pending;
    current = undefined;
    const attempt = openLink(options.url, report);
    pending = attempt;
    attempt.then(
      (made) => {
        if (pending === attempt) current = made;
      },
      () => {
        if (pending === attempt) pending = undefined;
      },
    );
    return attempt;
  }

  return {
    publish(message) {
      const sent = link().then((made) => send(made, message, confirmTimeoutMs));
      outstanding.add(sent);
      const forgetSent = () => outstanding.delete(sent);
      sent.then(forgetSent, forgetSent);
      return sent;
    },
    async close() {
      if (closed) return;
      closed = true;
      await settledWithin([...outstanding], CLOSE_WAIT_MS);
      const attempt = pending;
      pending = undefined;
      current = undefined;
      const made = await attempt?.catch(() => undefined);
      if (made) await retire(made);
    },
    async dropConnection() {
      const made = current;
      if (!made || made.lost) return;
      const gone = new Promise<void>((resolve) => made.model.once('close', () => resolve()));
      destroy(made.model, new Error('The connection was dropped on purpose.'));
      await settledWithin([gone], CLOSE_WAIT_MS);
    },
  };
}

/** Connects, opens a confirm channel and declares the exchange, all bounded in time. */
async function openLink(url: string, report: (error: unknown) => void): Promise<Link> {
  // Imported by the first connection: a server without EVENTS_AMQP_URL never loads it (docs/adr/053).
  const { connect } = await import('amqplib');
  const model = await connect(url, { timeout: CONNECT_TIMEOUT_MS });
  const made = { model, lost: false, ended: false, retiring: false } as Link;
  // Listeners first: an 'error' event with no listener would throw out of the socket's callback.
  watchConnection(made, report);
  const timer = setTimeout(
    () => destroy(model, new Error(`The broker did not open a channel within ${CONNECT_TIMEOUT_MS} ms.`)),
    CONNECT_TIMEOUT_MS,
  );
  try {
    const channel = await model.createConfirmChannel();
    made.channel = channel;
    watchChannel(made, report);
    await channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
    return made;
  } catch (error) {
    made.retiring = true;
    destroy(model, error instanceof Error ? error : new Error(String(error)));
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function watchConnection(made: Link, report: (error: unknown) => void): void {
  made.model.on('error', (error: Error) => {
    made.lost = true;
    if (made.retiring) return;
    made.reported = error;
    report(error);
  });
  made.model.on('close', (error?: Error) => {
    made.lost = true;
    made.ended = true;
    if (made.retiring || (error && error === made.reported)) return;
    report(error ?? new Error('The broker closed the connection.'));
  });
}

function watchChannel(made: Link, report: (error: unknown) => void): void {
  made.channel.on('error', (error: Error) => {
    if (made.retiring) return;
    made.reported = error;
    report(error);
  });
  made.channel.on('close', () => {
    made.lost = true;
    // One channel per connection: without it the connection is of no use. Looked at on a later turn,
    // because a connection going down closes its channels before it says so itself; one still up
    // is closed quietly (the channel's own 'error' already told why).
    setImmediate(() => {
      if (made.ended) return;
      made.retiring = true;
      made.model.close().catch(() => {});
    });
  });
}

/** Publishes one message and resolves on the broker's ack; rejects on a nack, a lost channel or no answer in time. */
function send(made: Link, message: OutboundMessage, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let done = false;
    const finish = (error?: unknown) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(
      () => finish(new Error(`The broker did not confirm within ${timeoutMs} ms.`)),
      timeoutMs,
    );
    writable(made).then(() => {
      if (done) return;
      try {
        const room = made.channel.publish(
          EVENTS_EXCHANGE,
          message.type,
          Buffer.from(message.body),
          properties(message),
          (error: unknown) => finish(error ?? undefined),
        );
        if (!room) blockUntilDrained(made);
      } catch (error) {
        // A closed channel refuses at once, before any confirm could be awaited.
        finish(error);
      }
    });
  });
}

function properties(message: OutboundMessage): Options.Publish {
  return {
    persistent: true,
    contentType: 'application/json',
    messageId: message.id,
    type: message.type,
    timestamp: Math.floor(Date.now() / 1000),
  };
}

/** Waits while the channel's buffer is full; a closing channel ends the wait (its publish then fails). */
async function writable(made: Link): Promise<void> {
  while (made.drained) await made.drained;
}

function blockUntilDrained(made: Link): void {
  if (made.drained) return;
  const { channel } = made;
  made.drained = new Promise<void>((resolve) => {
    const done = () => {
      channel.off('drain', done);
      channel.off('close', done);
      made.drained = undefined;
      resolve();
    };
    channel.on('drain', done);
    channel.on('close', done);
  });
}

/** Closes the connection politely, or breaks it when the broker does not answer in time. */
async function retire(made: Link): Promise<void> {
  made.retiring = true;
  const polite = made.model.close().then(
    () => true,
    () => false,
  );
  const agreed = await Promise.race([polite, delay(CLOSE_WAIT_MS).then(() => false)]);
  if (!agreed) destroy(made.model, new Error('The connection was closed without the broker.'));
}

/**
 * Breaks the connection's socket with `error`: the library then marks it closed, stops its heartbeat
 * and emits 'error' and 'close'. Reaches for the socket because the library exposes no abrupt close.
 */
function destroy(model: ChannelModel, error: Error): void {
  const socket = (model.connection as unknown as { stream?: Socket }).stream;
  if (socket && !socket.destroyed) socket.destroy(error);
  else model.close().catch(() => {});
}

async function settledWithin(work: Promise<unknown>[], ms: number): Promise<void> {
  if (work.length === 0) return;
  await Promise.race([Promise.allSettled(work), delay(ms)]);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
