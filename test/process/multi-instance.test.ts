import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { openStore } from '../../src/adapters/open-store.ts';
import type { Store } from '../../src/core/ports/store.ts';
import { accountOperations } from '../../src/features/accounts/cli/account-operations.ts';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

/** Three Snip processes sharing one PostgreSQL database and one Redis (the scale-out issue's proof). */
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

interface Answer {
  status: number;
  body: Record<string, string>;
}

async function create(base: string, key: string, url: string): Promise<Answer> {
  const response = await fetch(`${base}/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ url }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** Runs the jobs with at most `width` in flight. */
async function pool<T>(jobs: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await (jobs[i] as () => Promise<T>)();
      }
    }),
  );
  return results;
}

/** Waits for the next hour when fewer than `marginMs` of this one are left (at most `marginMs`). */
async function outOfHourEnd(marginMs: number): Promise<void> {
  const left = 3_600_000 - (Date.now() % 3_600_000);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

function databaseNamed(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.href;
}

if (!databaseUrl || !redisUrl) {
  describe('several instances on PostgreSQL and Redis', () => {
    it('shares limits, links, clicks and the demo log', {
      skip: 'TEST_DATABASE_URL and TEST_REDIS_URL are not both set',
    }, () => {});
  });
} else {
  describe('several instances on PostgreSQL and Redis', () => {
    const name = `snip_multi_${randomBytes(5).toString('hex')}`;
    const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const url = databaseNamed(databaseUrl, name);
    let store: Store;
    let target: TargetServer;
    let instances: ServerProcess[] = [];
    const keys: Record<string, string> = {};

    before(async () => {
      await admin.unsafe(`CREATE DATABASE ${name}`);
      store = await openStore(url, { prepare: true });
      const ops = accountOperations(store);
      await ops.savePlan('limited', { apiAccess: true, urlQuota: 100_000, rateLimitPerHour: 1000 });
      await ops.savePlan('roomy', { apiAccess: true, urlQuota: 100_000, rateLimitPerHour: 100_000 });
      await ops.savePlan('tight', { apiAccess: true, urlQuota: 25, rateLimitPerHour: 100_000 });
      const accounts = [
        ['limited', 'limited'],
        ['roomy', 'roomy'],
        ['tight', 'tight'],
        ['killed', 'roomy'],
      ] as const;
      for (const [who, plan] of accounts)
        keys[who] = (await ops.createAccount(`${who}@example.com`, plan)).apiKey;
      target = await startTargetServer();
      const env = {
        DATABASE_URL: url,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: `${name}:`,
        ALLOW_PRIVATE_TARGETS: 'true',
        CLICK_FLUSH_MS: '100',
        BASE_URL: 'https://sn.ip',
      };
      instances = await Promise.all([
        startServerProcess(env),
        startServerProcess(env),
        startServerProcess(env),
      ]);
    });

    after(async () => {
      await Promise.all(instances.map((instance) => instance.stop('SIGTERM')));
      await store?.close();
      await target?.close();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });

    const base = (i: number) => (instances[i % instances.length] as ServerProcess).url;

    it('lets one key make exactly its 1,000 requests per hour across instances', async () => {
      // Windows are clock hours (docs/api.md §2.5): a run that straddled one would rightly get 2,000.
      await outOfHourEnd(30_000);
      const answers = await pool(
        Array.from(
          { length: 3000 },
          (_, i) => () => create(base(i), keys.limited as string, target.url(`/title?n=${i}`)),
        ),
        48,
      );
      assert.equal(answers.filter((a) => a.status === 201).length, 1000);
      assert.equal(answers.filter((a) => a.status === 429).length, 2000);
    });

    it('creates exactly one link for 60 concurrent creates of one URL', async () => {
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          create(base(i), keys.roomy as string, target.url('/title?same')),
        ),
      );
      assert.equal(answers.filter((a) => a.status === 201).length, 1);
      assert.equal(answers.filter((a) => a.body.error === '305').length, 59);
    });

    it('keeps a quota of 25 against 100 concurrent distinct creates', async () => {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          create(base(i), keys.tight as string, target.url(`/title?quota=${i}`)),
        ),
      );
      assert.equal(answers.filter((a) => a.status === 201).length, 25);
      assert.equal(answers.filter((a) => a.body.error === '304').length, 75);
    });

    it('adds up clicks on one link spread over the instances', async () => {
      const created = await create(base(0), keys.roomy as string, target.url('/title?clicked'));
      assert.equal(created.status, 201);
      const code = created.body.short_code as string;
      const hits = await pool(
        Array.from(
          { length: 300 },
          (_, i) => () =>
            fetch(`${base(i)}/${code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } }).then(
              (r) => r.status,
            ),
        ),
        30,
      );
      assert.ok(hits.every((status) => status === 302));
      let clicks = 0;
      for (let i = 0; i < 100 && clicks < 300; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        clicks = (await store.findLinkByCode(code))?.clicks ?? 0;
      }
      assert.equal(clicks, 300);
    });

    it('counts each visitor once a day however many instances see them (docs/api.md §9.2)', async () => {
      const created = await create(base(0), keys.roomy as string, target.url('/title?visitors'));
      assert.equal(created.status, 201);
      const code = created.body.short_code as string;
      const link = await store.findLinkByCode(code);
      assert.ok(link);
      const dayStart = Date.now() - (Date.now() % 86_400_000);
      const range = { from: dayStart, to: dayStart + 86_400_000, interval: 'day' as const };
      const accountBefore = (await store.stats({ accountId: link.accountId }, range)).totals.uniqueVisitors;
      // Three browsers (one address, three user agents), each clicking 5 times on every instance.
      const agents = [0, 1, 2].map((n) => `${BROWSER} visitor-${name}-${n}`);
      const statuses = await pool(
        Array.from(
          { length: 45 },
          (_, i) => () =>
            fetch(`${base(i)}/${code}`, {
              redirect: 'manual',
              headers: { 'user-agent': agents[Math.floor(i / 15)] as string },
            }).then((r) => r.status),
        ),
        15,
      );
      assert.ok(statuses.every((status) => status === 302));
      let stats = await store.stats({ linkId: link.id }, range);
      for (let i = 0; i < 100 && stats.totals.clicks < 45; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        stats = await store.stats({ linkId: link.id }, range);
      }
      assert.equal(stats.totals.clicks, 45);
      assert.equal(stats.totals.uniqueVisitors, 3);
      assert.equal((await store.findLinkByCode(code))?.uniqueVisitors, 3);
      const account = await store.stats({ accountId: link.accountId }, range);
      assert.equal(account.totals.uniqueVisitors - accountBefore, 3);
    });

    it("redirects by a link's new state on every instance within a second of a PATCH or DELETE", async () => {
      const api = async (i: number, method: string, path: string, body?: unknown) => {
        const response = await fetch(`${base(i)}/api/v1${path}`, {
          method,
          headers: {
            'x-api-key': keys.roomy as string,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
        });
        return response.status;
      };
      const locationOn = async (i: number) => {
        const response = await fetch(`${base(i)}/moving-target`, {
          redirect: 'manual',
          headers: { 'user-agent': BROWSER },
        });
        return response.status === 404 ? 'gone' : response.headers.get('location');
      };
      /** How long, in ms, until every instance answers `wanted` (polled every 20 ms, given up after 3 s). */
      const settle = async (wanted: string) => {
        const started = performance.now();
        while (performance.now() - started < 3000) {
          const seen = await Promise.all([0, 1, 2].map(locationOn));
          if (seen.every((location) => location === wanted)) return performance.now() - started;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return Number.POSITIVE_INFINITY;
      };
      const first = target.url('/title?moving=1');
      const second = target.url('/title?moving=2');
      assert.equal(await api(0, 'POST', '/links', { url: first, slug: 'moving-target' }), 201);
      // Every instance has the link cached now.
      assert.deepEqual(await Promise.all([0, 1, 2].map(locationOn)), [first, first, first]);
      assert.equal(await api(0, 'PATCH', '/links/moving-target', { url: second }), 200);
      assert.ok((await settle(second)) < 1000, 'the new target everywhere within a second');
      assert.equal(await api(1, 'DELETE', '/links/moving-target'), 204);
      assert.ok((await settle('gone')) < 1000, 'the deleted code answers 404 everywhere within a second');
      assert.equal(await api(2, 'POST', '/links', { url: first, slug: 'moving-target' }), 409);
    });

    it('gives one slug to exactly one of 20 concurrent creates over the instances', async () => {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fetch(`${base(i)}/api/v1/links`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': keys.roomy as string },
            body: JSON.stringify({ url: target.url(`/title?slug-race=${i}`), slug: 'one-slug' }),
          }).then(async (response) => [response.status, ((await response.json()) as { code?: string }).code]),
        ),
      );
      assert.equal(statuses.filter(([status]) => status === 201).length, 1);
      assert.equal(statuses.filter(([status, code]) => status === 409 && code === '313').length, 19);
    });

    it('lets exactly 10 of 50 concurrent browser clicks through a link with max_clicks 10', async () => {
      const created = await fetch(`${base(0)}/api/v1/links`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': keys.roomy as string },
        body: JSON.stringify({ url: target.url('/title?limited'), slug: 'ten-only', max_clicks: 10 }),
      });
      assert.equal(created.status, 201);
      // A bot and a HEAD on every instance first: they never take a visit.
      for (const i of [0, 1, 2]) {
        await fetch(`${base(i)}/ten-only`, { redirect: 'manual', headers: { 'user-agent': 'Slackbot 1.0' } });
        await fetch(`${base(i)}/ten-only`, {
          method: 'HEAD',
          redirect: 'manual',
          headers: { 'user-agent': BROWSER },
        });
      }
      const statuses = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          fetch(`${base(i)}/ten-only`, { redirect: 'manual', headers: { 'user-agent': BROWSER } }).then(
            (response) => response.status,
          ),
        ),
      );
      assert.equal(statuses.filter((status) => status === 302).length, 10);
      assert.equal(statuses.filter((status) => status === 410).length, 40);
    });

    it('enforces expiry, passwords and targeting alike on every instance', async () => {
      const make = async (body: Record<string, unknown>) => {
        const answer = await fetch(`${base(0)}/api/v1/links`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': keys.roomy as string },
          body: JSON.stringify(body),
        });
        assert.equal(answer.status, 201);
      };
      const visit = (i: number, code: string, headers: Record<string, string> = {}) =>
        fetch(`${base(i)}/${code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER, ...headers } });
      const post = (i: number, code: string, password: string) =>
        fetch(`${base(i)}/${code}`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER },
          body: new URLSearchParams({ password }),
        });
      const expiresAt = new Date(Date.now() + 4000).toISOString();
      await make({ url: target.url('/title?soon'), slug: 'soon-gone', expires_at: expiresAt });
      await make({ url: target.url('/title?locked'), slug: 'locked-1', password: 'open sesame' });
      await make({
        url: target.url('/title?home'),
        slug: 'by-device',
        rules: [
          { if: { device: 'ios' }, url: target.url('/title?ios') },
          { if: { language: 'fr' }, url: target.url('/title?fr') },
        ],
      });
      for (const i of [0, 1, 2]) {
        assert.equal((await visit(i, 'soon-gone')).status, 302);
        assert.equal(
          (await visit(i, 'by-device', { 'user-agent': IPHONE })).headers.get('location'),
          target.url('/title?ios'),
        );
        assert.equal(
          (await visit(i, 'by-device', { 'accept-language': 'fr-FR, en;q=0.8' })).headers.get('location'),
          target.url('/title?fr'),
        );
        assert.equal((await visit(i, 'by-device')).headers.get('location'), target.url('/title?home'));
      }
      // Ten wrong passwords spread over the instances spend the one allowance of this address.
      const wrong = await Promise.all(Array.from({ length: 10 }, (_, i) => post(i, 'locked-1', 'nope')));
      assert.deepEqual(new Set(wrong.map((answer) => answer.status)), new Set([401]));
      for (const i of [0, 1, 2]) assert.equal((await post(i, 'locked-1', 'open sesame')).status, 429);
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, Date.parse(expiresAt) - Date.now() + 50)),
      );
      for (const i of [0, 1, 2]) assert.equal((await visit(i, 'soon-gone')).status, 410);
    });

    it('streams a demo request made on instance A to the event stream of instance C', async () => {
      const received = new Promise<string>((resolve, reject) => {
        const req = httpRequest(`${base(2)}/demo/log/stream`, (response) => {
          let seen = '';
          response.on('data', (chunk: Buffer) => {
            seen += chunk.toString();
            const data = /event: entry\ndata: (.*)\n/.exec(seen)?.[1];
            if (data) {
              req.destroy();
              resolve(data);
            }
          });
          // Connected: now make the request on instance A.
          void fetch(`${base(0)}/demo/create`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': 'demo' },
            body: JSON.stringify({ url: target.url('/title?demo-across') }),
          });
        });
        req.on('error', reject);
        req.end();
      });
      const entry = JSON.parse(await received);
      assert.equal(entry.fields.url, target.url('/title?demo-across'));
      assert.equal(entry.status, 201);
    });

    it('loses no acknowledged link when an instance is killed with SIGKILL mid-load', async () => {
      const victim = instances[1] as ServerProcess;
      const acknowledged: string[] = [];
      let sent = 0;
      const load = pool(
        Array.from({ length: 400 }, (_, i) => async () => {
          sent++;
          try {
            const answer = await create(victim.url, keys.killed as string, target.url(`/title?killed=${i}`));
            if (answer.status === 201) acknowledged.push(answer.body.short_code as string);
          } catch {
            // The connection died with the process: not acknowledged.
          }
          if (acknowledged.length === 50) victim.child.kill('SIGKILL');
        }),
        16,
      );
      await load;
      assert.ok(acknowledged.length >= 50 && sent === 400);
      await victim.stop('SIGKILL');
      assert.equal(victim.child.signalCode, 'SIGKILL');
      for (const code of acknowledged)
        assert.ok(await store.findLinkByCode(code), `acknowledged ${code} is stored`);
      instances = instances.filter((instance) => instance !== victim);
    });
  });
}
