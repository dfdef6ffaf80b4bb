import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { assertProblem, callApi, keyWithScopes } from '../../fixtures/api-client.ts';
import { type Receiver, startReceiver } from '../../fixtures/webhook-receiver.ts';
import { send, startTestApp, type TestApp } from '../../helper.ts';

/** Webhooks through /api/v1 and the events links make (docs/api.md §14), one app for the suite. */

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let t: TestApp;
let receiver: Receiver;

before(async () => {
  receiver = await startReceiver();
  t = await startTestApp({
    env: { ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_BASE_MS: '20', CLICK_FLUSH_MS: '50' },
  });
});
after(async () => {
  await t.close();
  await receiver.close();
});

const api = (method: string, path: string, body?: unknown, key = t.apiKey) =>
  callApi(t.app, method, path, { key, ...(body === undefined ? {} : { body }) });

async function endpoint(events: string[], url = receiver.url) {
  const made = await api('POST', '/webhooks', { url, events, description: 'test' });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  return made.body as { id: number; secret: string; url: string };
}

/** Verifies a request's signature with the Standard Webhooks package; the parsed payload. */
function verified(secret: string, one: Receiver['received'][number]) {
  const headers = {
    'webhook-id': String(one.headers['webhook-id']),
    'webhook-timestamp': String(one.headers['webhook-timestamp']),
    'webhook-signature': String(one.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(one.body, headers) as { type: string; data: Record<string, unknown> };
}

describe('endpoints', () => {
  it('adds one with its secret shown once, and lists it without', async () => {
    const made = await endpoint(['link.deleted']);
    assert.match(made.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const one = await api('GET', `/webhooks/${made.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.secret, undefined);
    assert.deepEqual(one.body.events, ['link.deleted']);
    const list = await api('GET', '/webhooks');
    assert.ok((list.body.items as Array<{ id: number }>).some((item) => item.id === made.id));
    const rotated = await api('POST', `/webhooks/${made.id}/rotate`);
    assert.match(String(rotated.body.secret), /^whsec_/);
    assert.notEqual(rotated.body.secret, made.secret);
    assert.equal((await api('DELETE', `/webhooks/${made.id}`)).status, 204);
    assertProblem(await api('GET', `/webhooks/${made.id}`), 404, '314');
  });

  it('refuses bad fields with 300 and a URL that is not http(s) with 320', async () => {
    assertProblem(await api('POST', '/webhooks', { url: receiver.url, events: [] }), 400, '300');
    assertProblem(await api('POST', '/webhooks', { url: receiver.url, events: ['link.nope'] }), 400, '300');
    assertProblem(await api('POST', '/webhooks', { url: receiver.url }), 400, '300');
    assertProblem(
      await api('POST', '/webhooks', { url: 'ftp://x.example/', events: ['link.created'] }),
      422,
      '320',
    );
    assertProblem(await api('POST', '/webhooks', 'not json'), 400, '300');
  });

  it('needs the webhooks:write scope', async () => {
    const key = await keyWithScopes(t.store, t.email, ['links:read']);
    assertProblem(await api('GET', '/webhooks', undefined, key), 403, '315');
  });
});

describe('events', () => {
  it('sends exactly one signed link.created per create, and updated and deleted', async () => {
    const hook = await endpoint(['link.created', 'link.updated', 'link.deleted']);
    const made = await api('POST', '/links', { url: 'https://example.com/created' });
    assert.equal(made.status, 201);
    const code = made.body.short_code;
    await api('PATCH', `/links/${code}`, { title: 'New title' });
    await api('DELETE', `/links/${code}`);
    await receiver.until(() => receiver.ofType('link.deleted').length >= 1);
    const about = (type: string) =>
      receiver
        .ofType(type)
        .filter((one) => (one.event.data.link as { short_code: string }).short_code === code);
    assert.equal(about('link.created').length, 1);
    const created = verified(hook.secret, about('link.created')[0] as Receiver['received'][number]);
    assert.equal(created.type, 'link.created');
    assert.equal((created.data.link as { long_url: string }).long_url, 'https://example.com/created');
    const updated = about('link.updated')[0]?.event.data.link as { title: string } | undefined;
    assert.equal(updated?.title, 'New title');
    assert.equal(about('link.deleted').length, 1);
    await api('DELETE', `/webhooks/${hook.id}`);
  });

  it('sends link.clicked for a human click only, never for bots or HEAD, without an address', async () => {
    const hook = await endpoint(['link.clicked']);
    const made = await api('POST', '/links', { url: 'https://example.com/clicked' });
    const code = String(made.body.short_code);
    await send(t.app, { method: 'GET', url: `/${code}`, headers: { 'user-agent': 'curl/8.0' } });
    await send(t.app, { method: 'HEAD', url: `/${code}`, headers: { 'user-agent': BROWSER } });
    await send(t.app, {
      method: 'GET',
      url: `/${code}`,
      headers: { 'user-agent': BROWSER, referer: 'https://news.example/a?b', 'accept-language': 'de-DE' },
    });
    await t.app.clicks.flush();
    const clicks = () => receiver.ofType('link.clicked').filter((one) => one.body.includes(code));
    await receiver.until(() => clicks().length >= 1);
    // A change after the clicks, delivered once they were: nothing else about them is on its way.
    await api('DELETE', `/links/${code}`);
    await t.app.clicks.flush();
    const event = verified(hook.secret, clicks()[0] as Receiver['received'][number]);
    assert.equal(clicks().length, 1);
    const click = event.data.click as Record<string, string>;
    assert.equal(click.referrer, 'news.example');
    assert.equal(click.language, 'de');
    assert.equal(click.browser, 'Chrome');
    assert.doesNotMatch(clicks()[0]?.body ?? '', /127\.0\.0\.1|Mozilla/);
    await api('DELETE', `/webhooks/${hook.id}`);
  });
});

/** Asks until `done` holds of the answer, at most about 10 s: the outcome is recorded just after the answer. */
async function eventually<T>(ask: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const value = await ask();
    if (done(value) || i >= 500) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type Delivery = {
  id: number;
  webhook_id: string;
  type: string;
  status: string;
  attempt: number;
  response_code: number;
};
const deliveriesOf = async (id: number) =>
  (await api('GET', `/webhooks/${id}/deliveries`)).body.items as Delivery[];

describe('delivery', () => {
  it('retries after 500s with the same webhook-id until a 2xx', async () => {
    const flaky = await startReceiver((_, nth) => (nth <= 2 ? 500 : 204));
    try {
      const hook = await endpoint(['link.created'], flaky.url);
      await api('POST', '/links', { url: 'https://example.com/retried' });
      await flaky.until(() => flaky.received.length >= 3);
      assert.equal(new Set(flaky.received.map((one) => one.headers['webhook-id'])).size, 1);
      const [delivery] = await eventually(
        () => deliveriesOf(hook.id),
        (items) => items[0]?.status === 'delivered',
      );
      assert.equal(delivery?.status, 'delivered');
      assert.equal(delivery?.attempt, 3);
      assert.equal(delivery?.response_code, 204);
      await api('DELETE', `/webhooks/${hook.id}`);
    } finally {
      await flaky.close();
    }
  });

  it('sends a test event, lists it, and resends it with the same webhook-id', async () => {
    const hook = await endpoint(['link.disabled']);
    const sent = await api('POST', `/webhooks/${hook.id}/test`);
    assert.equal(sent.status, 202);
    const id = String(sent.body.webhook_id);
    const tests = () => receiver.received.filter((one) => one.headers['webhook-id'] === id);
    await receiver.until(() => tests().length === 1);
    assert.equal(verified(hook.secret, tests()[0] as Receiver['received'][number]).type, 'webhook.test');
    const [delivery] = await eventually(
      () => deliveriesOf(hook.id),
      (items) => items[0]?.status === 'delivered',
    );
    assert.equal(delivery?.webhook_id, id);
    const resent = await api('POST', `/webhooks/${hook.id}/deliveries/${delivery?.id}/resend`);
    assert.equal(resent.status, 202);
    await receiver.until(() => tests().length === 2);
    assertProblem(await api('POST', `/webhooks/${hook.id}/deliveries/999999/resend`), 404, '314');
    assertProblem(await api('GET', `/webhooks/${hook.id}/deliveries?cursor=forged`), 400, '300');
    await api('DELETE', `/webhooks/${hook.id}`);
  });

  it('keeps redirects and the API answering while the receiver hangs', async () => {
    const stuck = await startReceiver(() => 'hang');
    try {
      const hook = await endpoint(['link.clicked', 'link.created'], stuck.url);
      const made = await api('POST', '/links', { url: 'https://example.com/hanging' });
      assert.equal(made.status, 201);
      await stuck.until(() => stuck.received.length >= 1);
      for (let i = 0; i < 50; i++) {
        const answer = await send(t.app, {
          method: 'GET',
          url: `/${made.body.short_code}`,
          headers: { 'user-agent': BROWSER },
        });
        assert.equal(answer.status, 302);
      }
      await t.app.clicks.flush();
      assert.equal((await api('GET', '/links')).status, 200);
      assert.equal((await api('PATCH', `/webhooks/${hook.id}`, { enabled: false })).body.enabled, false);
      await api('DELETE', `/webhooks/${hook.id}`);
    } finally {
      await stuck.close();
    }
  });
});

describe('the address policy without ALLOW_PRIVATE_TARGETS', () => {
  let strict: TestApp;
  const names: Record<string, string> = { 'hooks.internal': '10.0.0.7', 'metadata.test': '169.254.169.254' };
  before(async () => {
    strict = await startTestApp({
      resolveWebhooks: async (host) => {
        const address = names[host];
        if (!address) throw Object.assign(new Error('no such name'), { code: 'ENOTFOUND' });
        return [{ address, family: 4 }];
      },
    });
  });
  after(() => strict.close());

  it('refuses private and metadata addresses, by literal or by name, with 320', async () => {
    for (const url of [
      receiver.url,
      'http://10.1.2.3/hook',
      'http://[::1]:8080/hook',
      'http://169.254.169.254/latest',
      'http://hooks.internal/hook',
      'https://metadata.test/hook',
    ]) {
      const answer = await callApi(strict.app, 'POST', '/webhooks', {
        key: strict.apiKey,
        body: { url, events: ['link.created'] },
      });
      assertProblem(answer, 422, '320');
    }
  });
});
