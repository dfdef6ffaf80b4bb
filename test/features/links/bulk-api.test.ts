import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryWindowCounter } from '../../../src/adapters/memory/window-counter.ts';
import type { Actor } from '../../../src/core/entities.ts';
import { UnavailableError } from '../../../src/core/errors.ts';
import type { InspectOutcome, Inspector } from '../../../src/core/ports/inspector.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { spendWindow, workspaceRateWindow } from '../../../src/core/rate-window.ts';
import type { LinkResource } from '../../../src/features/links/api/link-schemas.ts';
import { contendedKeys } from '../../../src/features/links/bulk-checks.ts';
import { hostSlots } from '../../../src/features/links/bulk-limiter.ts';
import { runTasks, spendInOrder } from '../../../src/features/links/bulk-run.ts';
import { assertProblem, callApi, keyWithScopes } from '../../fixtures/api-client.ts';
import { type Answer, startTestApp, type TestApp } from '../../helper.ts';

/** POST|PATCH|DELETE /api/v1/links/bulk (docs/api.md §16): an answer per index, each item a request of its own. */

const BOOM = 'https://fault.example/boom';
const AWAY = 'https://fault.example/away';

/** The app's store, but inserting BOOM fails as a broken store would, and AWAY as one that does not answer. */
function faultyStore(store: Store): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (property !== 'insertLinkWithinQuota') return value.bind(target);
      return async (...args: Parameters<Store['insertLinkWithinQuota']>) => {
        if (args[0].longUrl === BOOM) throw new Error('the store broke (test)');
        if (args[0].longUrl === AWAY) throw new UnavailableError('the store did not answer (test)');
        return target.insertLinkWithinQuota(...args);
      };
    },
  });
}

/**
 * Answers every target at once, but holds each fetch of a host under .gate.test until the test
 * releases it, counting how many are held at once, in all and per host.
 */
class GatedInspector implements Inspector {
  readonly held: Array<() => void> = [];
  maxInFlight = 0;
  maxPerHost = 0;
  private inFlight = 0;
  private readonly perHost = new Map<string, number>();
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];

  private opened = false;

  async inspect(url: URL): Promise<InspectOutcome> {
    if (!this.opened && url.hostname.endsWith('.gate.test')) {
      const host = url.hostname;
      this.inFlight++;
      this.perHost.set(host, (this.perHost.get(host) ?? 0) + 1);
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      this.maxPerHost = Math.max(this.maxPerHost, this.perHost.get(host) ?? 0);
      await new Promise<void>((release) => {
        this.held.push(release);
        for (const waiter of this.waiters.filter((one) => this.held.length >= one.count)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      });
      this.inFlight--;
      this.perHost.set(host, (this.perHost.get(host) ?? 1) - 1);
    }
    return { ok: true, title: 'A page', finalUrl: url.href, status: 200 };
  }

  /** Once at least `count` fetches are held. */
  heldAtLeast(count: number): Promise<void> {
    if (this.held.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  releaseAll(): void {
    for (const release of this.held.splice(0)) release();
  }

  /** Holds nothing any more: a failed test leaves no request hanging. */
  open(): void {
    this.opened = true;
    this.releaseAll();
  }

  async close(): Promise<void> {}
}

let t: TestApp;
const gate = new GatedInspector();
before(async () => {
  t = await startTestApp({ inspector: gate, storeSeenByApp: faultyStore });
});
after(async () => {
  await t.close();
});

const api = (method: string, path: string, body?: unknown, key = t.apiKey) =>
  callApi(t.app, method, path, { key, ...(body === undefined ? {} : { body }) });

type Item = { index: number; link?: Record<string, unknown>; error?: Record<string, unknown> };

/** The items of a 200 answer, each checked to be at its index with a link or a problem. */
function itemsOf(answer: Answer, count: number): Item[] {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const items = answer.body.items as Item[];
  assert.equal(items.length, count);
  items.forEach((item, index) => {
    assert.equal(item.index, index);
    assert.equal((item.link === undefined) !== (item.error === undefined), true, JSON.stringify(item));
  });
  return items;
}

/** The error code of each item, '' for a link. */
const codesOf = (items: Item[]) =>
  items.map((item) => {
    if (!item.error) return '';
    assert.equal(item.error.type, 'about:blank');
    assert.equal(typeof item.error.title, 'string');
    assert.equal(typeof item.error.detail, 'string');
    return item.error.code;
  });

const remaining = (answer: Answer) => Number(answer.headers['ratelimit-remaining']);

/** A further account on its own plan; its key. */
async function accountOn(plan: string, limits: { urlQuota: number; rateLimitPerHour: number }) {
  await t.ops.savePlan(plan, { apiAccess: true, ...limits });
  return (await t.ops.createAccount(`${plan}@example.com`, plan)).apiKey;
}

describe('POST /api/v1/links/bulk', () => {
  it('answers each item at its index, as a single create would, and spends one unit per item', async () => {
    const taken = await api('POST', '/links', { url: 'https://mixed.example/taken', slug: 'bulk-taken' });
    assert.equal(taken.status, 201);
    const items = [
      { url: 'https://mixed.example/one', tags: ['b'], title: 'One' },
      { url: 'not a url' },
      {},
      { url: 'https://www.facebook.com/someone' },
      { url: 'https://mixed.example/two', slug: 'bulk-taken' },
      { url: 'https://mixed.example/taken' },
      42,
      null,
      [{ url: 'https://mixed.example/array' }],
      { url: 'https://mixed.example/three', colour: 'red' },
      { url: 'https://mixed.example/one' },
      { url: 'https://mixed.example/four', slug: 'bulk-twice' },
      { url: 'https://mixed.example/five', slug: 'bulk-twice' },
    ];
    const answer = await api('POST', '/links/bulk', items);
    const answered = itemsOf(answer, items.length);
    assert.deepEqual(codesOf(answered), [
      '',
      '300',
      '302',
      '310',
      '313',
      '305',
      '300',
      '300',
      '300',
      '300',
      '305',
      '',
      '313',
    ]);
    assert.deepEqual(
      answered.map((item) => item.error?.status ?? 200),
      [200, 400, 400, 422, 409, 409, 400, 400, 400, 400, 409, 200, 409],
    );
    assert.equal(answered[0]?.link?.title, 'One');
    assert.deepEqual(answered[0]?.link?.tags, ['b']);
    assert.equal(answered[11]?.link?.short_code, 'bulk-twice');
    // The request spent the first item's unit, every further item one more.
    assert.equal(remaining(answer), remaining(taken) - items.length);
    const listed = await api('GET', '/links?q=mixed.example');
    assert.equal((listed.body.items as unknown[]).length, 3);
  });

  it('refuses a body of more than 100 items, none, or another shape as a whole with 300, creating nothing', async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ url: `https://many.example/${i}` }));
    for (const body of [many, [], { url: 'https://many.example/' }, 'https://many.example/', '[{"url":']) {
      assertProblem(await api('POST', '/links/bulk', body), 400, '300');
    }
    const form = await callApi(t.app, 'POST', '/links/bulk', {
      key: t.apiKey,
      body: 'url=https://many.example/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assertProblem(form, 400, '300');
    const listed = await api('GET', '/links?q=many.example');
    assert.deepEqual(listed.body.items, []);
  });

  it('takes 100 items past the 64 KiB of a single request', async () => {
    const description = 'd'.repeat(900);
    const items = Array.from({ length: 100 }, (_, i) => ({
      url: `https://hundred.example/${i}`,
      preview: { title: `Card ${i}`, description },
    }));
    assert.ok(JSON.stringify(items).length > 64 * 1024);
    const answered = itemsOf(await api('POST', '/links/bulk', items), 100);
    assert.deepEqual(new Set(codesOf(answered)), new Set(['']));
    assert.equal(answered[99]?.link?.long_url, 'https://hundred.example/99');
  });

  it('quotas each item as one create: the items past the plan quota answer 304', async () => {
    const key = await accountOn('bulk-quota', { urlQuota: 3, rateLimitPerHour: 1000 });
    assert.equal((await api('POST', '/links', { url: 'https://quota.example/0' }, key)).status, 201);
    const items = [1, 2, 3, 4].map((i) => ({ url: `https://quota.example/${i}` }));
    const codes = codesOf(itemsOf(await api('POST', '/links/bulk', items, key), 4));
    assert.equal(codes.filter((code) => code === '').length, 2);
    assert.equal(codes.filter((code) => code === '304').length, 2);
    const listed = await api('GET', '/links', undefined, key);
    assert.equal((listed.body.items as unknown[]).length, 3);
  });

  it('counts each item in the hourly window: the items past it answer 429 in a 200', async () => {
    const key = await accountOn('bulk-window', { urlQuota: 1000, rateLimitPerHour: 5 });
    const items = Array.from({ length: 8 }, (_, i) => ({ url: `https://window.example/${i}` }));
    const answer = await api('POST', '/links/bulk', items, key);
    const answered = itemsOf(answer, 8);
    assert.deepEqual(codesOf(answered), ['', '', '', '', '', '429', '429', '429']);
    assert.equal(answered[5]?.error?.status, 429);
    assert.equal(remaining(answer), 0);
    assertProblem(await api('POST', '/links/bulk', items.slice(0, 1), key), 429, '429');
  });

  it('answers an item the store fails with 500 (503 when it does not answer), the others still created, nothing of it written', async () => {
    const items = [
      { url: 'https://fault.example/fine' },
      { url: BOOM },
      { url: AWAY },
      { url: 'https://fault.example/also' },
    ];
    const answered = itemsOf(await api('POST', '/links/bulk', items), 4);
    assert.deepEqual(codesOf(answered), ['', '500', '503', '']);
    assert.deepEqual(
      answered.map((item) => item.error?.status ?? 200),
      [200, 500, 503, 200],
    );
    const listed = await api('GET', '/links?q=fault.example');
    const urls = (listed.body.items as Array<{ long_url: string }>).map((link) => link.long_url).sort();
    assert.deepEqual(urls, ['https://fault.example/also', 'https://fault.example/fine']);
  });

  it('needs links:create, and reads GET /links/bulk as the link of that code', async () => {
    const reader = await keyWithScopes(t.store, t.email, ['links:read', 'links:write']);
    assertProblem(await api('POST', '/links/bulk', [{ url: 'https://scope.example/' }], reader), 403, '315');
    assertProblem(await api('GET', '/links/bulk'), 404, '314');
    assert.equal((await api('POST', '/links', { url: 'https://slug.example/', slug: 'bulk' })).status, 201);
    assert.equal((await api('GET', '/links/bulk')).body.long_url, 'https://slug.example/');
    const put = await api('PUT', '/links/bulk', []);
    assertProblem(put, 405, '405');
  });
});

describe('a group a bulk item names', () => {
  it('is found by ID, API identifier or name (any case), an ID winning over a name that reads the same', async () => {
    const spring = await t.ops.createGroup(t.email, 'Spring Sale');
    // A group whose name is the other one's ID: the ID wins.
    const numbered = await t.ops.createGroup(t.email, String(spring.id), 'numbered');
    const items = [
      { url: 'https://groups.example/name', group: 'Spring Sale' },
      { url: 'https://groups.example/case', group: '  spring SALE ' },
      { url: 'https://groups.example/api-id', group: spring.apiId },
      { url: 'https://groups.example/id', group: spring.id },
      { url: 'https://groups.example/id-text', group: String(spring.id) },
      { url: 'https://groups.example/numbered', group: 'numbered' },
    ];
    const answered = itemsOf(await api('POST', '/links/bulk', items), items.length);
    assert.deepEqual(codesOf(answered), ['', '', '', '', '', '']);
    assert.deepEqual(
      answered.map((item) => (item.link?.group as { id: number } | null)?.id),
      [spring.id, spring.id, spring.id, spring.id, spring.id, numbered.id],
    );
  });

  it('that no group has is its own 312, naming what was asked, after the checks of the url', async () => {
    const items = [
      { url: 'https://groups.example/missing', group: 'No Such Group' },
      { group: 'No Such Group' },
      { url: 'not a url', group: 'No Such Group' },
      { url: 'https://groups.example/missing-id', group: 999_999 },
    ];
    const answered = itemsOf(await api('POST', '/links/bulk', items), items.length);
    assert.deepEqual(codesOf(answered), ['312', '302', '300', '312']);
    assert.equal(answered[0]?.error?.status, 422);
    assert.match(String(answered[0]?.error?.detail), /“No Such Group”/);
    assert.match(String(answered[3]?.error?.detail), /“999999”/);
    const listed = await api('GET', '/links?q=groups.example/missing');
    assert.deepEqual(listed.body.items, []);
  });

  it('stays an ID or API identifier on a single create (312 for a name)', async () => {
    await t.ops.createGroup(t.email, 'Only Bulk');
    assertProblem(
      await api('POST', '/links', { url: 'https://groups.example/single', group: 'Only Bulk' }),
      422,
      '312',
    );
  });
});

describe('PATCH and DELETE /api/v1/links/bulk', () => {
  it('changes each code, answering 314 for an unknown one and 300 for one that is not a code', async () => {
    const made = itemsOf(
      await api('POST', '/links/bulk', [
        { url: 'https://edit.example/a' },
        { url: 'https://edit.example/b' },
      ]),
      2,
    ).map((item) => item.link?.short_code as string);
    const codes = [made[0], 'no-such-code', 42, null, ['x'], made[1], made[0]];
    const answered = itemsOf(
      await api('PATCH', '/links/bulk', { codes, change: { title: 'Renamed', tags: ['edited'] } }),
      codes.length,
    );
    assert.deepEqual(codesOf(answered), ['', '314', '300', '300', '300', '', '']);
    assert.equal(answered[5]?.link?.title, 'Renamed');
    const read = await api('GET', `/links/${made[1]}`);
    assert.deepEqual(read.body.tags, ['edited']);
    // A change each link refuses: one error per item, nothing changed.
    const refused = itemsOf(
      await api('PATCH', '/links/bulk', { codes: made, change: { url: 'https://twitter.com/x' } }),
      2,
    );
    assert.deepEqual(codesOf(refused), ['310', '310']);
    assert.equal((await api('GET', `/links/${made[0]}`)).body.long_url, 'https://edit.example/a');
    // One new url for both: the first takes it, the second is a duplicate.
    const moved = itemsOf(
      await api('PATCH', '/links/bulk', { codes: made, change: { url: 'https://edit.example/c' } }),
      2,
    );
    assert.deepEqual(codesOf(moved), ['', '305']);
  });

  it('refuses a malformed edit as a whole', async () => {
    const code = (await api('POST', '/links', { url: 'https://edit.example/whole' })).body.short_code;
    const many = Array.from({ length: 101 }, () => code);
    for (const body of [
      { codes: many, change: { title: 'x' } },
      { codes: [], change: { title: 'x' } },
      { codes: [code], change: {} },
      { codes: [code], change: { title: 7 } },
      { codes: [code] },
      { codes: code, change: { title: 'x' } },
      [code],
    ]) {
      assertProblem(await api('PATCH', '/links/bulk', body), 400, '300');
    }
    const elsewhere = { codes: [code], change: { title: 'x' }, domain: 'not-ours.example' };
    assertProblem(await api('PATCH', '/links/bulk', elsewhere), 400, '317');
    const reader = await keyWithScopes(t.store, t.email, ['links:read', 'links:create'], 'reader');
    assertProblem(
      await api('PATCH', '/links/bulk', { codes: [code], change: { title: 'x' } }, reader),
      403,
      '315',
    );
    assertProblem(await api('DELETE', '/links/bulk', { codes: [code] }, reader), 403, '315');
    assert.equal((await api('GET', `/links/${code}`)).body.title, 'A page');
  });

  it('deletes each code, answering the link as it was, 314 for an unknown or already deleted one', async () => {
    const made = itemsOf(
      await api('POST', '/links/bulk', [
        { url: 'https://delete.example/a' },
        { url: 'https://delete.example/b' },
      ]),
      2,
    ).map((item) => item.link?.short_code as string);
    const codes = [made[0], 'no-such-code', made[0], 7, made[1]];
    const answered = itemsOf(await api('DELETE', '/links/bulk', { codes }), codes.length);
    assert.deepEqual(codesOf(answered), ['', '314', '314', '300', '']);
    assert.equal(answered[0]?.link?.long_url, 'https://delete.example/a');
    for (const code of made) assertProblem(await api('GET', `/links/${code}`), 404, '314');
    for (const body of [{ codes: [] }, { codes: made, change: {} }, {}]) {
      assertProblem(await api('DELETE', '/links/bulk', body), 400, '300');
    }
  });
});

describe('how the items of one request run', () => {
  const flush = () => new Promise((resolve) => setImmediate(resolve));

  it("spends one unit per item in index order, the first one the request's own when it spent it", async () => {
    const counter = new MemoryWindowCounter();
    const actor = { keyId: 1, workspaceId: 77, plan: { rateLimitPerHour: 3 } } as unknown as Actor;
    const now = () => Date.UTC(2030, 0, 1, 12);
    const first = await spendInOrder(counter, actor, 5, 0, now);
    assert.deepEqual(
      first.refused.map((refusal) => refusal?.code),
      [undefined, undefined, undefined, '429', '429'],
    );
    assert.equal(first.rate?.remaining, 0);
    // The request's key check spent one unit of a fresh window: it is item 0's.
    const fresh = new MemoryWindowCounter();
    await spendWindow(fresh, workspaceRateWindow(actor), now());
    const spent = await spendInOrder(fresh, actor, 4, 1, now);
    assert.deepEqual(
      spent.refused.map((refusal) => refusal?.code),
      [undefined, undefined, undefined, '429'],
    );
  });

  it('runs an item after the earlier ones it shares a target or a slug with, whatever else runs', async () => {
    assert.deepEqual(
      contendedKeys({ url: 'HTTPS://Same.example', slug: 'one' }),
      contendedKeys({ url: 'https://same.example/', slug: 'one' }),
    );
    const started: number[] = [];
    let finishFirst = () => {};
    const link = {} as LinkResource;
    const task = (index: number, keys: string[], held = false) => ({
      host: undefined,
      keys,
      run: async () => {
        started.push(index);
        if (held) await new Promise<void>((release) => (finishFirst = release));
        return link;
      },
    });
    const done = runTasks([task(0, ['url x'], true), task(1, ['slug y']), task(2, ['slug y', 'url x'])]);
    await flush();
    assert.deepEqual(started, [0, 1]);
    finishFirst();
    const items = await done;
    assert.deepEqual(started, [0, 1, 2]);
    assert.deepEqual(
      items.map((item) => item.index),
      [0, 1, 2],
    );
  });

  it('runs at most `total` tasks, at most `perHost` per host, the waiting ones in order as the bounds allow', async () => {
    const slots = hostSlots({ total: 3, perHost: 2 });
    const started: number[] = [];
    const releases = new Map<number, () => void>();
    const hosts = ['a', 'a', 'a', 'b', 'b', undefined, undefined];
    const runs = hosts.map((host, index) =>
      slots.run(host, async () => {
        started.push(index);
        await new Promise<void>((release) => releases.set(index, release));
        return index;
      }),
    );
    const finish = async (index: number) => {
      releases.get(index)?.();
      await flush();
    };
    await flush();
    assert.deepEqual(started, [0, 1, 3]);
    await finish(0);
    assert.deepEqual(started, [0, 1, 3, 2]);
    await finish(3);
    assert.deepEqual(started, [0, 1, 3, 2, 4]);
    await finish(1);
    await finish(2);
    assert.deepEqual(started, [0, 1, 3, 2, 4, 5, 6]);
    await finish(4);
    await finish(5);
    await finish(6);
    assert.deepEqual(await Promise.all(runs), [0, 1, 2, 3, 4, 5, 6]);
  });

  it('inspects at most 8 targets at once and at most 2 of one host, through the real create', {
    timeout: 20_000,
  }, async () => {
    const hosts = ['a', 'b', 'c', 'd', 'e'];
    const items = hosts.flatMap((host) =>
      [0, 1, 2, 3].map((i) => ({ url: `https://${host}.gate.test/${i}` })),
    );
    const answer = api('POST', '/links/bulk', items);
    try {
      // Waves: 2 of each of a-d (8 in all, e waiting), the other 2 of a-d, then e two by two.
      for (const wave of [8, 8, 2, 2]) {
        await gate.heldAtLeast(wave);
        assert.equal(gate.held.length, wave);
        gate.releaseAll();
      }
    } finally {
      gate.open();
    }
    const answered = itemsOf(await answer, items.length);
    assert.deepEqual(new Set(codesOf(answered)), new Set(['']));
    assert.equal(answered[19]?.link?.long_url, 'https://e.gate.test/3');
    assert.equal(gate.maxInFlight, 8);
    assert.equal(gate.maxPerHost, 2);
  });
});
