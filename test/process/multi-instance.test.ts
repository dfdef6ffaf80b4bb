import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { openStore } from '../../src/adapters/open-store.ts';
import type { Store } from '../../src/core/ports/store.ts';
import { accountOperations } from '../../src/features/workspaces/cli/account-operations.ts';
import { runSnip } from '../fixtures/cli-harness.ts';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.ts';
import { utcToday } from '../fixtures/utc-today.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

/**
 * Three Snip processes sharing one PostgreSQL database and one Redis (the scale-out issue's proof);
 * each URL is empty when unset, and the suite is then skipped.
 */
const databaseUrl = process.env.TEST_DATABASE_URL ?? '';
const redisUrl = process.env.TEST_REDIS_URL ?? '';
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

/**
 * How many answers had each status, every status being one of `allowed`. Under load a 503 is a
 * valid answer (a store or Redis call passed its deadline): the assertions below count what the
 * contract allows whatever arrived in time, and come down to exact counts when no 503 came.
 */
function tally(statuses: readonly number[], allowed: readonly number[]): (status: number) => number {
  const unexpected = statuses.filter((status) => !allowed.includes(status));
  assert.deepEqual(unexpected, [], `statuses other than ${allowed.join(', ')}`);
  return (status) => statuses.filter((s) => s === status).length;
}

/** `exact` of `count`, or fewer by at most the answers that were 503 instead. */
function atMostBy503(count: number, exact: number, unavailable: number, what: string): void {
  assert.ok(
    count <= exact && count >= exact - unavailable,
    `${what}: ${count} of ${exact} (${unavailable} × 503)`,
  );
}

/**
 * What `read` gives once it reaches `wanted` (the flushes are every 100 ms here), or what it gives
 * after 30 s: a bound for a broken flush, far beyond what any machine needs.
 */
async function settled(read: () => Promise<number>, wanted: number): Promise<number> {
  const deadline = Date.now() + 30_000;
  let value = await read();
  while (value < wanted && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

/** What `read` answers once it is `wanted`, or its last answer after 10 s (the event travels over Redis). */
async function eventually<T>(read: () => Promise<T>, wanted: T): Promise<T> {
  const deadline = Date.now() + 10_000;
  let value = await read();
  while (value !== wanted && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = await read();
  }
  return value;
}

function databaseNamed(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.href;
}

const skip = databaseUrl && redisUrl ? false : 'TEST_DATABASE_URL and TEST_REDIS_URL are not both set';

describe('several instances on PostgreSQL and Redis', { skip }, () => {
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
    // The window lets exactly 1,000 requests through; a let-through create may still answer 503
    // (its store call passed the deadline), and a request refused 503 before its key was read
    // spends nothing, so another takes its place.
    const count = tally(
      answers.map((a) => a.status),
      [201, 429, 503],
    );
    atMostBy503(count(201), 1000, count(503), 'created');
    atMostBy503(count(429), 2000, count(503), 'refused 429');
    // Spent: one more request on any instance is refused.
    for (const i of [0, 1, 2]) {
      const more = await create(base(i), keys.limited as string, target.url(`/title?more=${i}`));
      assert.equal(more.status, 429);
    }
  });

  it('creates exactly one link for 60 concurrent creates of one URL', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => create(base(i), keys.roomy as string, target.url('/title?same'))),
    );
    const count = tally(
      answers.map((a) => a.status),
      [201, 409, 503],
    );
    assert.ok(count(201) <= 1);
    atMostBy503(
      count(201) + answers.filter((a) => a.body.error === '305').length,
      60,
      count(503),
      'answered',
    );
    assert.equal(answers.filter((a) => a.body.error === '305').length, count(409));
    const account = await store.findAccountByEmail('roomy@example.com');
    assert.ok(account);
    const page = await store.listLinks(account.workspace.id, {
      search: '/title?same',
      limit: 10,
      counted: false,
    });
    assert.ok(page.links.length <= 1, 'one URL, one link');
    if (count(201) + count(409) > 0) assert.equal(page.links.length, 1);
  });

  it('keeps a quota of 25 against 100 concurrent distinct creates', async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        create(base(i), keys.tight as string, target.url(`/title?quota=${i}`)),
      ),
    );
    const count = tally(
      answers.map((a) => a.status),
      [201, 403, 503],
    );
    atMostBy503(count(201), 25, count(503), 'created');
    atMostBy503(answers.filter((a) => a.body.error === '304').length, 75, count(503), 'refused 304');
    const account = await store.findAccountByEmail('tight@example.com');
    assert.ok(account);
    // A create answered 503 may have been stored after all: never beyond the quota.
    const stored = await store.countLiveLinks(account.workspace.id);
    assert.ok(stored >= count(201) && stored <= 25, `${stored} links stored of a quota of 25`);
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
    // A code new to an instance is looked up in the store: under load that may answer 503.
    const redirected = tally(hits, [302, 503])(302);
    const clicks = await settled(async () => (await store.findLinkByCode(0, code))?.clicks ?? 0, redirected);
    assert.equal(clicks, redirected);
  });

  it('counts each visitor once a day however many instances see them (docs/api.md §9.2)', async () => {
    const created = await create(base(0), keys.roomy as string, target.url('/title?visitors'));
    assert.equal(created.status, 201);
    const code = created.body.short_code as string;
    const link = await store.findLinkByCode(0, code);
    assert.ok(link);
    const dayStart = utcToday();
    const range = { from: dayStart, to: dayStart + 86_400_000, interval: 'day' as const };
    const accountBefore = (await store.stats({ workspaceId: link.workspaceId }, range)).totals.uniqueVisitors;
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
    const redirected = tally(statuses, [302, 503])(302);
    // Each browser counts once if any of its clicks got through.
    const visitors = [0, 1, 2].filter((n) =>
      statuses.slice(n * 15, n * 15 + 15).some((status) => status === 302),
    ).length;
    const clicks = await settled(
      async () => (await store.stats({ linkId: link.id }, range)).totals.clicks,
      redirected,
    );
    assert.equal(clicks, redirected);
    const stats = await store.stats({ linkId: link.id }, range);
    assert.equal(stats.totals.uniqueVisitors, visitors);
    assert.equal((await store.findLinkByCode(0, code))?.uniqueVisitors, visitors);
    const account = await store.stats({ workspaceId: link.workspaceId }, range);
    assert.equal(account.totals.uniqueVisitors - accountBefore, visitors);
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
    /**
     * What every instance answers once a second has passed since the change was acknowledged: the
     * contract's bound itself, so the check asks no more of a loaded machine than the contract does.
     */
    const aSecondAfter = async (acknowledged: number) => {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, acknowledged + 1000 - Date.now())));
      return Promise.all([0, 1, 2].map(locationOn));
    };
    const first = target.url('/title?moving=1');
    const second = target.url('/title?moving=2');
    assert.equal(await api(0, 'POST', '/links', { url: first, slug: 'moving-target' }), 201);
    // Every instance has the link cached now.
    assert.deepEqual(await Promise.all([0, 1, 2].map(locationOn)), [first, first, first]);
    assert.equal(await api(0, 'PATCH', '/links/moving-target', { url: second }), 200);
    const patched = Date.now();
    assert.deepEqual(await aSecondAfter(patched), [second, second, second], 'the new target everywhere');
    assert.equal(await api(1, 'DELETE', '/links/moving-target'), 204);
    const deleted = Date.now();
    assert.deepEqual(
      await aSecondAfter(deleted),
      ['gone', 'gone', 'gone'],
      'the code answers 404 everywhere',
    );
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
    const count = tally(
      statuses.map(([status]) => status as number),
      [201, 409, 503],
    );
    assert.ok(count(201) <= 1);
    atMostBy503(
      count(201) + statuses.filter(([status, code]) => status === 409 && code === '313').length,
      20,
      count(503),
      'answered',
    );
    assert.equal(statuses.filter(([, code]) => code === '313').length, count(409));
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
    // The visits are taken in Redis: a take that passed its deadline answers 503.
    const count = tally(statuses, [302, 410, 503]);
    atMostBy503(count(302), 10, count(503), 'let through');
    atMostBy503(count(410), 40, count(503), 'refused 410');
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
    /** Before its expiry a visit is redirected, from it on 410; one sent just before may be answered after. */
    const beforeExpiry = async (i: number) => {
      const sent = Date.now();
      const { status } = await visit(i, 'soon-gone');
      if (Date.now() < Date.parse(expiresAt)) assert.equal(status, 302);
      else assert.equal(status, sent < Date.parse(expiresAt) && status === 302 ? 302 : 410);
    };
    for (const i of [0, 1, 2]) {
      await beforeExpiry(i);
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
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(expiresAt) - Date.now() + 50)));
    for (const i of [0, 1, 2]) assert.equal((await visit(i, 'soon-gone')).status, 410);
  });

  it('serves a domain verified by the operator, and a change of its link, on every instance', async () => {
    const host = 'multi.example';
    const json = { 'content-type': 'application/json', 'x-api-key': keys.roomy as string };
    const added = await fetch(`${base(0)}/api/v1/domains`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ host }),
    });
    assert.equal(added.status, 201);
    // Verified from the command line: the word reaches the servers over Redis.
    const env = {
      DATABASE_URL: url,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `${name}:`,
      BASE_URL: 'https://sn.ip',
    };
    assert.equal((await runSnip(env, {}, ['domain', 'verify', host, '--json'])).json.verified, true);
    const link = await fetch(`${base(1)}/api/v1/links`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ url: target.url('/title?domain-a'), slug: 'multi1', domain: host }),
    });
    assert.equal(link.status, 201);
    const locationOn = (i: number) =>
      new Promise<string | undefined>((resolve, reject) => {
        const req = httpRequest(`${base(i)}/multi1`, { headers: { host } }, (response) => {
          response.resume();
          resolve(response.headers.location);
        });
        req.on('error', reject);
        req.end();
      });
    const first = target.url('/title?domain-a');
    // Every instance serves the new domain's link (a cold code under load may be 503: asked again).
    for (const i of [0, 1, 2]) assert.equal(await eventually(() => locationOn(i), first), first);
    const changed = await fetch(`${base(0)}/api/v1/links/multi1?domain=${host}`, {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ url: target.url('/title?domain-b') }),
    });
    assert.equal(changed.status, 200);
    const next = target.url('/title?domain-b');
    for (const i of [0, 1, 2]) assert.equal(await eventually(() => locationOn(i), next), next);
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
      assert.ok(await store.findLinkByCode(0, code), `acknowledged ${code} is stored`);
    instances = instances.filter((instance) => instance !== victim);
  });
});
