import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { callApi } from '../fixtures/api-client.ts';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.ts';
import { startTestApp, type TestApp } from '../helper.ts';

/**
 * A server's background work (the webhook dispatcher, schedulers, polls) begins only once it
 * listens (docs/operating.md): a process that cannot listen delivers nothing from the store it
 * opened. Each app here starts the way `snip serve` does.
 */

/** How long a delivery would take at most to leave a started dispatcher (it wakes 10 ms after a change). */
const WOULD_HAVE_SENT_MS = 500;

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(() => receiver.close());

/** An app as `snip serve` builds it, with an endpoint for new links and one link made: a delivery waits. */
async function appWithWaitingDelivery(): Promise<{ t: TestApp; code: string }> {
  const t = await startTestApp({
    env: { ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_BASE_MS: '20' },
    background: 'when-listening',
  });
  const api = (path: string, body: unknown) => callApi(t.app, 'POST', path, { key: t.apiKey, body });
  assert.equal((await api('/webhooks', { url: receiver.url, events: ['link.created'] })).status, 201);
  const link = await api('/links', { url: 'https://example.com/background' });
  assert.equal(link.status, 201);
  return { t, code: (link.body as { short_code: string }).short_code };
}

const deliveredFor = (code: string) =>
  receiver.ofType('link.created').filter((one) => one.body.includes(code));

describe('background work begins once the server listens', () => {
  it('delivers nothing when the port is taken', async () => {
    const { t, code } = await appWithWaitingDelivery();
    const taken = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as { port: number };
    try {
      await assert.rejects(t.app.listen({ port, host: '127.0.0.1' }), { code: 'EADDRINUSE' });
      await delay(WOULD_HAVE_SENT_MS);
      assert.equal(deliveredFor(code).length, 0, 'no webhook left a process without a listener');
    } finally {
      taken.close();
      await t.close();
    }
  });

  it('delivers what waited once it listens', async () => {
    const { t, code } = await appWithWaitingDelivery();
    try {
      await delay(WOULD_HAVE_SENT_MS);
      assert.equal(deliveredFor(code).length, 0, 'nothing is sent before the listener is up');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      await receiver.until(() => deliveredFor(code).length === 1);
    } finally {
      await t.close();
    }
  });
});
