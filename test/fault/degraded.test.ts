import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withDeadline } from '../../src/adapters/deadline.ts';
import { UnavailableError } from '../../src/core/errors.ts';
import type { WindowCounter } from '../../src/core/ports/shared-state.ts';
import type { Store } from '../../src/core/ports/store.ts';
import { PageClient } from '../fixtures/page-client.ts';
import { createJson, startTestApp } from '../helper.ts';

/**
 * Snip with a backing service that does not answer (docs/api.md §10), in one process: a store whose
 * calls hang and shared state that is unreachable. Every answer comes, none is a 500.
 */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

/** The store, with the methods named in `hung` hanging for as long as they are named there. */
function switchableStore(store: Store, hung: Set<string>): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        typeof property === 'string' && hung.has(property)
          ? new Promise(() => {})
          : value.apply(target, args);
    },
  });
}

/** Shared state that cannot be reached while `down.value` holds. */
function switchableCounter(down: { value: boolean }): WindowCounter {
  const counts = new Map<string, number>();
  const fail = () => Promise.reject(new UnavailableError('The shared rate-limit store is unreachable.'));
  return {
    increment: async (key, window) => {
      if (down.value) return fail();
      const name = `${key}:${window.start}`;
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return counts.get(name) ?? 0;
    },
    peek: async (key, window) => (down.value ? fail() : (counts.get(`${key}:${window.start}`) ?? 0)),
    decrement: async (key, window) => {
      if (down.value) return fail();
      const name = `${key}:${window.start}`;
      counts.set(name, Math.max(0, (counts.get(name) ?? 0) - 1));
    },
  };
}

describe('a store that stops answering', () => {
  // A bound against a hang, not a measure: the case starts a server and renders pages, which took
  // over 20 s with another suite beside it on two slow shared cores.
  it('answers 503 within STORE_TIMEOUT_MS on /create, pages, cold redirects and /readyz, then recovers', {
    timeout: 60_000,
  }, async () => {
    const hung = new Set<string>();
    const t = await startTestApp({
      env: { STORE_TIMEOUT_MS: '300' },
      storeSeenByApp: (store) => switchableStore(store, hung),
    });
    try {
      const client = new PageClient(t.app);
      await t.ops.createAccount('pages@example.com', 'tester', 'correct horse battery');
      await client.signIn('pages@example.com');
      const before = await createJson(t.app, t.apiKey, { url: 'https://example.com/cached' });
      const cold = await createJson(t.app, t.apiKey, { url: 'https://example.com/cold' });
      t.app.linkCache.invalidate(String(cold.body.short_code));

      for (const method of [
        'findKeyByHash',
        'insertLinkWithinQuota',
        'findSession',
        'findLinkByCode',
        'ping',
      ]) {
        hung.add(method);
      }
      const create = await createJson(t.app, t.apiKey, { url: 'https://example.com/during' });
      assert.equal(create.status, 503);
      assert.equal(create.body.error, '503');
      assert.ok(Number(create.headers['retry-after']) > 0);

      const dashboard = await client.get(client.at(''));
      assert.equal(dashboard.statusCode, 503);
      assert.match(String(dashboard.headers['content-type']), /^text\/html/);
      assert.ok(Number(dashboard.headers['retry-after']) > 0);

      const coldRedirect = await t.app.inject({ method: 'GET', url: `/${cold.body.short_code}` });
      assert.equal(coldRedirect.statusCode, 503);
      assert.ok(Number(coldRedirect.headers['retry-after']) > 0);
      const qr = await t.app.inject({ method: 'GET', url: `/qrcode/${cold.body.short_code}.png` });
      assert.equal(qr.statusCode, 503);
      // A link in the cache keeps redirecting while the store is gone.
      const hot = await t.app.inject({
        method: 'GET',
        url: `/${before.body.short_code}`,
        headers: { 'user-agent': BROWSER },
      });
      assert.equal(hot.statusCode, 302);
      assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 503);

      hung.clear();
      const after = await createJson(t.app, t.apiKey, { url: 'https://example.com/after' });
      assert.equal(after.status, 201);
      assert.equal((await client.get(client.at(''))).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: `/${cold.body.short_code}` })).statusCode, 302);
      assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  it('never bounds the writes no request waits on: a late click batch must not be counted twice', () => {
    const never = () => new Promise<never>(() => {});
    const fake = {
      addClicks: never,
      insertLinksBulk: never,
      migrate: never,
      close: never,
      findLinkByCode: never,
    } as unknown as Store;
    const bounded = withDeadline(fake, 10);
    for (const method of ['addClicks', 'insertLinksBulk', 'migrate', 'close'] as const) {
      assert.equal(bounded[method], fake[method], method);
    }
    assert.notEqual(bounded.findLinkByCode, fake.findLinkByCode);
  });
});

describe('shared state that cannot be reached (Redis down)', () => {
  it('refuses /create with 503, renders the dashboard with usage unavailable, and keeps redirecting', async () => {
    const down = { value: false };
    const t = await startTestApp({ counter: switchableCounter(down) });
    try {
      await t.ops.createAccount('usage@example.com', 'tester', 'correct horse battery');
      const client = new PageClient(t.app);
      await client.signIn('usage@example.com');
      const link = await createJson(t.app, t.apiKey, { url: 'https://example.com/kept' });
      t.app.linkCache.invalidate(String(link.body.short_code));

      down.value = true;
      const refused = await createJson(t.app, t.apiKey, { url: 'https://example.com/refused' });
      assert.equal(refused.status, 503);
      assert.equal(refused.body.error, '503');
      assert.ok(Number(refused.headers['retry-after']) > 0);

      const dashboard = await client.get(client.at(''));
      assert.equal(dashboard.statusCode, 200);
      assert.match(dashboard.body, /data-usage="requests" data-unavailable="true"/);
      const fromDashboard = await client.post(client.at('/links'), { url: 'https://example.com/form' });
      assert.equal(fromDashboard.statusCode, 503);

      const redirect = await t.app.inject({
        method: 'GET',
        url: `/${link.body.short_code}`,
        headers: { 'user-agent': BROWSER },
      });
      assert.equal(redirect.statusCode, 302);
      // Sign-in counts failures in shared state: it answers 503, never 500.
      const signIn = new PageClient(t.app);
      await signIn.open('/login');
      assert.equal(
        (await signIn.post('/login', { email: 'usage@example.com', password: 'x' })).statusCode,
        503,
      );

      down.value = false;
      assert.equal((await createJson(t.app, t.apiKey, { url: 'https://example.com/back' })).status, 201);
    } finally {
      await t.close();
    }
  });
});
