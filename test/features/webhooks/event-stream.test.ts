import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import amqp from 'amqplib';
import { type FaultProxy, startFaultProxy } from '../../fault/proxy.ts';
import { callApi } from '../../fixtures/api-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * The operator's event stream (docs/api.md §14): every event also goes to RabbitMQ, topic exchange
 * snip.events, routing key = type, persistent; from the outbox, so an outage loses nothing.
 */

const AMQP_URL = process.env.TEST_AMQP_URL;

/** A queue bound to every event of snip.events; the messages it got. */
async function listen(url: string) {
  const connection = await amqp.connect(url);
  const channel = await connection.createChannel();
  await channel.assertExchange('snip.events', 'topic', { durable: true });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, 'snip.events', '#');
  const got: amqp.ConsumeMessage[] = [];
  const waiters = new Set<() => void>();
  await channel.consume(queue, (message) => {
    if (!message) return;
    got.push(message);
    channel.ack(message);
    for (const wake of waiters) wake();
  });
  return {
    got,
    about: (code: string) => got.filter((message) => message.content.toString().includes(`"${code}"`)),
    until(done: () => boolean, timeoutMs = 20_000): Promise<void> {
      if (done()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!done()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`stream: gave up waiting after ${got.length} messages`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    close: () => connection.close(),
  };
}

describe('the event stream on RabbitMQ', { skip: !AMQP_URL && 'TEST_AMQP_URL is not set' }, () => {
  let t: TestApp;
  let proxy: FaultProxy;
  let stream: Awaited<ReturnType<typeof listen>>;

  before(async () => {
    const broker = new URL(AMQP_URL as string);
    proxy = await startFaultProxy({ host: broker.hostname, port: Number(broker.port || 5672) });
    stream = await listen(AMQP_URL as string);
    t = await startTestApp({
      env: { EVENTS_AMQP_URL: proxy.through(AMQP_URL as string), WEBHOOK_RETRY_BASE_MS: '20' },
    });
  });
  after(async () => {
    await t.close();
    await stream.close();
    await proxy.close();
  });

  const api = (method: string, path: string, body?: unknown) =>
    callApi(t.app, method, path, { key: t.apiKey, ...(body === undefined ? {} : { body }) });

  it('publishes one persistent message per event, routed by its type, with no endpoint at all', async () => {
    const made = await api('POST', '/links', { url: 'https://example.com/streamed' });
    const code = String(made.body.short_code);
    await api('PATCH', `/links/${code}`, { title: 'Streamed' });
    await stream.until(() => stream.about(code).length >= 2);
    const [created, updated] = stream.about(code);
    assert.equal(created?.fields.routingKey, 'link.created');
    assert.equal(updated?.fields.routingKey, 'link.updated');
    assert.equal(created?.properties.deliveryMode, 2);
    assert.match(String(created?.properties.messageId), /^msg_/);
    assert.equal(JSON.parse(created?.content.toString() ?? '{}').type, 'link.created');
    // One message per event: the delete's message comes after, and nothing else about the link.
    await api('DELETE', `/links/${code}`);
    await stream.until(() => stream.about(code).length >= 3);
    assert.deepEqual(
      stream.about(code).map((message) => message.fields.routingKey),
      ['link.created', 'link.updated', 'link.deleted'],
    );
  });

  it('publishes lead.created and sale.created (docs/api.md §20), naming the customer by its key only', async () => {
    const made = await api('POST', '/links', {
      url: 'https://example.com/converts',
      track_conversions: true,
    });
    const code = String(made.body.short_code);
    const click = await t.app.inject({
      method: 'GET',
      url: `/${code}`,
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' },
    });
    const id = /snip_id=([A-Za-z0-9_-]+)/.exec(String(click.headers.location))?.[1];
    await t.app.clickIds.flush();
    assert.equal(
      (await api('POST', '/track/lead', { click_id: id, event_name: 'Sign up', customer_id: 'stream-cus-9' }))
        .status,
      201,
    );
    await api('POST', '/track/sale', { customer_id: 'stream-cus-9', amount: 700, currency: 'GBP' });
    const conversions = () =>
      stream.about(code).filter((message) => message.fields.routingKey !== 'link.created');
    await stream.until(() => conversions().length >= 2);
    assert.deepEqual(
      conversions().map((message) => message.fields.routingKey),
      ['lead.created', 'sale.created'],
    );
    for (const message of conversions()) assert.doesNotMatch(message.content.toString(), /stream-cus-9/);
  });

  /** Failed attempts to publish so far, from /metrics. */
  async function failedPublishes(): Promise<number> {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    return Number(/snip_webhook_attempts_total\{sink="stream",outcome="failed"\} (\d+)/.exec(text)?.[1] ?? 0);
  }

  it('loses nothing while the broker is down and delivers once it is back', async () => {
    const failedBefore = await failedPublishes();
    proxy.setMode('reset');
    const made = await api('POST', '/links', { url: 'https://example.com/while-down' });
    assert.equal(made.status, 201);
    const code = String(made.body.short_code);
    // The event's first attempt fails while the broker is away; then the broker comes back.
    for (let i = 0; i < 500 && (await failedPublishes()) === failedBefore; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok((await failedPublishes()) > failedBefore, 'no attempt failed while the broker was down');
    assert.equal(stream.about(code).length, 0);
    proxy.setMode('pass');
    await stream.until(() => stream.about(code).length >= 1);
    assert.equal(stream.about(code)[0]?.fields.routingKey, 'link.created');
  });
});
