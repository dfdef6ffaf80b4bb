import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type Channel, type ChannelModel, type ConsumeMessage, connect } from 'amqplib';
import {
  type AmqpEventPublisher,
  amqpPublisher,
  EVENTS_EXCHANGE,
} from '../../../src/adapters/amqp/event-publisher.ts';
import type { OutboundMessage } from '../../../src/core/ports/event-sinks.ts';
import { startFaultProxy } from '../../fault/proxy.ts';
import { closedPort } from '../../fixtures/closed-port.ts';

/**
 * The event stream on a real RabbitMQ (TEST_AMQP_URL): each queue here is exclusive to this run and
 * goes with its connection; messages of other runs on the shared exchange are ignored by id.
 */
const url = process.env.TEST_AMQP_URL ?? '';
const run = randomBytes(6).toString('hex');
/** How long any one wait for the broker may take before the test fails instead of hanging. */
const WAIT_MS = 10_000;
const TEST = { timeout: 30_000 };
let sequence = 0;

function message(type: string): OutboundMessage {
  const id = `msg_${run}_${++sequence}`;
  const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data: { id, note: 'héllo ✓' } });
  return { id, type, body };
}

/** A queue of this run bound to the exchange, keeping what it receives of this run. */
interface Inbox {
  received: ConsumeMessage[];
  /** Resolves once every id arrived; rejects past WAIT_MS. */
  until(ids: string[]): Promise<void>;
  count(id: string): number;
}

async function openInbox(channel: Channel, patterns: string[]): Promise<Inbox> {
  const name = `snip-test-${run}-${randomBytes(4).toString('hex')}`;
  await channel.assertQueue(name, { exclusive: true, autoDelete: true, durable: false });
  for (const pattern of patterns) await channel.bindQueue(name, EVENTS_EXCHANGE, pattern);
  const received: ConsumeMessage[] = [];
  const waiters = new Set<() => void>();
  await channel.consume(
    name,
    (delivery) => {
      if (!delivery || !String(delivery.properties.messageId).startsWith(`msg_${run}_`)) return;
      received.push(delivery);
      for (const waiter of [...waiters]) waiter();
    },
    { noAck: true },
  );
  const count = (id: string) => received.filter((m) => m.properties.messageId === id).length;
  return {
    received,
    count,
    until(ids) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!ids.every((id) => count(id) > 0)) return;
          finish();
          resolve();
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`${ids.filter((id) => count(id) === 0).length} of ${ids.length} never arrived`));
        }, WAIT_MS);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** Resolves on the first error reported to onError; rejects past WAIT_MS. */
function errorWatch() {
  const errors: unknown[] = [];
  let notify: () => void = () => {};
  const first = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no error was reported')), WAIT_MS);
    notify = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  first.catch(() => {});
  return {
    errors,
    first,
    onError(error: unknown) {
      errors.push(error);
      notify();
    },
  };
}

describe('amqpPublisher', { skip: !process.env.TEST_AMQP_URL && 'TEST_AMQP_URL is not set' }, () => {
  let consumer: ChannelModel;
  let channel: Channel;
  const publishers: AmqpEventPublisher[] = [];
  const publisher = (options: Partial<Parameters<typeof amqpPublisher>[0]> = {}) => {
    const made = amqpPublisher({ url, ...options });
    publishers.push(made);
    return made;
  };

  before(async () => {
    consumer = await connect(url, { timeout: 5_000 });
    consumer.on('error', () => {});
    channel = await consumer.createChannel();
    await channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
  });
  after(async () => {
    await Promise.all(publishers.map((made) => made.close()));
    await consumer?.close().catch(() => {});
  });

  it('delivers a confirmed message once, persistent, with its id, type and exact body', TEST, async () => {
    const inbox = await openInbox(channel, ['link.created', 'link.#']);
    const events = publisher();
    const created = message('link.created');
    const marker = message('link.updated');
    await events.publish(created);
    await events.publish(marker);
    // Both routes match the first message: the queue still holds it once; the marker, published
    // after it on the same channel, shows nothing else is on its way.
    await inbox.until([created.id, marker.id]);
    assert.equal(inbox.count(created.id), 1);
    const [delivered] = inbox.received;
    assert.ok(delivered);
    assert.equal(delivered.fields.exchange, EVENTS_EXCHANGE);
    assert.equal(delivered.fields.routingKey, 'link.created');
    assert.equal(delivered.properties.deliveryMode, 2);
    assert.equal(delivered.properties.messageId, created.id);
    assert.equal(delivered.properties.type, 'link.created');
    assert.equal(delivered.properties.contentType, 'application/json');
    assert.equal(typeof delivered.properties.timestamp, 'number');
    assert.equal(delivered.content.toString('utf8'), created.body);
  });

  it('routes by event type: a queue bound to link.clicked gets no link.created', TEST, async () => {
    const inbox = await openInbox(channel, ['link.clicked']);
    const events = publisher();
    const created = message('link.created');
    const clicked = message('link.clicked');
    await events.publish(created);
    await events.publish(clicked);
    await inbox.until([clicked.id]);
    assert.deepEqual(
      inbox.received.map((m) => m.properties.messageId),
      [clicked.id],
    );
  });

  it('confirms and delivers 500 concurrent publishes, each once', TEST, async () => {
    const inbox = await openInbox(channel, ['link.#']);
    const events = publisher();
    const batch = Array.from({ length: 500 }, (_, i) => message(i % 2 ? 'link.clicked' : 'link.updated'));
    await Promise.all(batch.map((m) => events.publish(m)));
    const marker = message('link.deleted');
    await events.publish(marker);
    await inbox.until([...batch.map((m) => m.id), marker.id]);
    assert.equal(inbox.received.length, 501);
    assert.ok(batch.every((m) => inbox.count(m.id) === 1));
  });

  it('rejects, without hanging, while nothing listens at the broker address', TEST, async () => {
    const events = publisher({ url: `amqp://guest:guest@127.0.0.1:${await closedPort()}` });
    const refused = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ECONNREFUSED';
    await assert.rejects(events.publish(message('link.created')), refused);
    // A failed attempt is not kept: the next publish tries again (and fails again).
    await assert.rejects(events.publish(message('link.created')), refused);
    await events.close();
  });

  it('reports a dropped connection and reconnects on the next publish', TEST, async () => {
    const inbox = await openInbox(channel, ['link.created']);
    const watch = errorWatch();
    const events = publisher({ onError: watch.onError });
    const first = message('link.created');
    await events.publish(first);
    await events.dropConnection();
    await watch.first;
    const second = message('link.created');
    await events.publish(second);
    await inbox.until([first.id, second.id]);
  });

  it('rejects while the broker is cut off, and delivers again once it is back', TEST, async () => {
    const broker = new URL(url);
    const proxy = await startFaultProxy({ host: broker.hostname, port: Number(broker.port || 5672) });
    try {
      const inbox = await openInbox(channel, ['link.updated']);
      const watch = errorWatch();
      const events = publisher({ url: proxy.through(url), onError: watch.onError });
      const earlier = message('link.updated');
      await events.publish(earlier);
      proxy.setMode('reset');
      await watch.first;
      await assert.rejects(events.publish(message('link.updated')));
      proxy.setMode('pass');
      const afterwards = message('link.updated');
      await events.publish(afterwards);
      await inbox.until([earlier.id, afterwards.id]);
      await events.close();
    } finally {
      await proxy.close();
    }
  });

  it('rejects a publish the broker does not confirm in time', TEST, async () => {
    const broker = new URL(url);
    const proxy = await startFaultProxy({ host: broker.hostname, port: Number(broker.port || 5672) });
    try {
      const events = publisher({ url: proxy.through(url), confirmTimeoutMs: 300 });
      await events.publish(message('link.disabled'));
      proxy.setMode('blackhole');
      await assert.rejects(events.publish(message('link.disabled')));
      proxy.setMode('pass');
      await events.publish(message('link.disabled'));
      await events.close();
    } finally {
      await proxy.close();
    }
  });

  it('closes without throwing, connected or not, and refuses publishes afterwards', TEST, async () => {
    const idle = publisher();
    await idle.close();
    const used = publisher();
    await used.publish(message('link.created'));
    await used.close();
    await used.close();
    await assert.rejects(used.publish(message('link.created')));
  });
});
