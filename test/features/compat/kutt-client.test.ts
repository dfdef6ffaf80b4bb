import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Kutt } from 'kutt';
import { callApi } from '../../fixtures/api-client.ts';
import { send, startTestApp, type TestApp } from '../../helper.ts';
import { linkIds, VisitSeeder } from '../analytics/stats-seed.ts';

/**
 * The Kutt API v2 (docs/api.md §15) driven by the kutt npm package against a listening Snip: every
 * method of the package, the request ShareX's Kutt shortener sends, and Kutt's link shape.
 */

const HOUR = 3_600_000;
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 24, 15, 30);
const ACME = 'go.acme.example';
const LINK_KEYS = [
  'address',
  'banned',
  'created_at',
  'description',
  'domain',
  'expire_in',
  'id',
  'link',
  'password',
  'target',
  'updated_at',
  'visit_count',
];

type Failure = Error & { cause?: { status?: number; data?: Record<string, unknown> } };
type Shape = Record<string, unknown>;

const records = new Map<string, string>();
const resolveTxt = async (name: string): Promise<string[][]> => {
  const value = records.get(name);
  if (value === undefined) throw Object.assign(new Error('no record'), { code: 'ENODATA' });
  return [[value]];
};

let t: TestApp;
let base: string;
let kutt: Kutt;

/** The client's rejection carries the status and Kutt's `{error}` body. */
async function refused(work: Promise<unknown>, status: number): Promise<void> {
  await assert.rejects(work, (error: Failure) => {
    assert.equal(error.cause?.status, status, error.message);
    assert.deepEqual(Object.keys(error.cause?.data ?? {}), ['error']);
    assert.equal(typeof error.cause?.data?.error, 'string');
    return true;
  });
}

/** A request to /api/v2 as a script would send it, with the test's key. */
const v2 = (method: 'GET' | 'POST', path: string, body?: unknown) =>
  send(t.app, {
    method,
    url: `/api/v2${path}`,
    headers: { 'x-api-key': t.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

const clientWith = (key: string) => new Kutt().set('api', `${base}/api/v2`).set('key', key);

before(async () => {
  t = await startTestApp({ now: () => NOW, resolveTxt });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  kutt = clientWith(t.apiKey);
  const added = await callApi(t.app, 'POST', '/domains', { key: t.apiKey, body: { host: ACME } });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  const { record, value } = added.body.verification as { record: string; value: string };
  records.set(record, value);
  const verified = await callApi(t.app, 'POST', `/domains/${ACME}/verify`, { key: t.apiKey });
  assert.equal(verified.body.verified, true);
});
after(() => t?.close());

describe('the kutt package against Snip', () => {
  it('checks health without a key', async () => {
    assert.equal(await clientWith('').health().check(), true);
    const answer = await fetch(`${base}/api/v2/health`);
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers.get('content-type')), /^text\/html/);
    assert.equal(await answer.text(), 'OK');
  });

  it("creates a link from every field Kutt takes and answers Kutt's link shape", async () => {
    const link = (await kutt.links().create({
      target: 'https://example.com/kutt/first',
      description: 'The first one',
      expire_in: '2 minutes',
      password: 'open sesame',
      customurl: 'kutt-first',
      reuse: false,
    })) as unknown as Shape;
    assert.deepEqual(Object.keys(link).sort(), LINK_KEYS);
    assert.equal(link.id, 'kutt-first');
    assert.equal(link.address, 'kutt-first');
    assert.equal(link.link, 'https://sn.ip/kutt-first');
    assert.equal(link.target, 'https://example.com/kutt/first');
    assert.equal(link.description, 'The first one');
    assert.equal(link.expire_in, new Date(NOW + 2 * 60_000).toISOString());
    assert.equal(link.password, true);
    assert.equal(link.banned, false);
    assert.equal(link.visit_count, 0);
    assert.equal(link.domain, null);
    assert.ok(link.created_at instanceof Date, 'the package revives created_at');
  });

  it('reads expire_in as Kutt does, and adds http:// to a target without a scheme', async () => {
    const durations: Array<[string, number]> = [
      ['1 hours', HOUR],
      ['3 days', 3 * DAY],
      ['8h', 8 * HOUR],
      ['90 mins', 90 * 60_000],
      ['1.5 weeks', 10.5 * DAY],
    ];
    for (const [n, [expire_in, ms]] of durations.entries()) {
      const link = await kutt.links().create({ target: `https://example.com/kutt/expiring-${n}`, expire_in });
      assert.equal((link as unknown as Shape).expire_in, new Date(NOW + ms).toISOString(), expire_in);
    }
    const bare = await kutt.links().create({ target: 'example.com/kutt/bare' });
    assert.equal(bare.target, 'http://example.com/kutt/bare');
  });

  it('answers the link already made for a target with reuse, and refuses a second one without', async () => {
    const target = 'https://example.com/kutt/twice';
    const first = await kutt.links().create({ target });
    const again = await kutt.links().create({ target, reuse: true, customurl: 'ignored-with-reuse' });
    assert.equal(again.id, first.id);
    const raw = await v2('POST', '/links', { target, reuse: true });
    assert.equal(raw.status, 200);
    await refused(kutt.links().create({ target }), 400);
    await refused(kutt.links().create({ target, reuse: false }), 400);
  });

  it('lists links newest first by limit and skip, with the total; `all` changes nothing', async () => {
    const page = await kutt.links().list({ limit: 2, skip: 0 });
    assert.deepEqual(Object.keys(page).sort(), ['data', 'limit', 'skip', 'total']);
    assert.equal(page.limit, 2);
    assert.equal(page.skip, 0);
    assert.equal(page.data.length, 2);
    assert.ok(page.total >= 8, String(page.total));
    const next = await kutt.links().list({ limit: 2, skip: 1, all: true });
    assert.equal(next.total, page.total);
    assert.equal(next.data[0]?.id, page.data[1]?.id);
    const everything = await kutt.links().list({ limit: 50 });
    assert.equal(everything.data.length, page.total);
    assert.equal(everything.data.at(-1)?.id, 'kutt-first');
  });

  it('edits target, description and expire_in; the address must stay the code', async () => {
    const link = await kutt
      .links()
      .create({ target: 'https://example.com/kutt/before', customurl: 'kutt-edit' });
    const edited = (await kutt.links().update(link.id, {
      address: 'kutt-edit',
      target: 'https://example.com/kutt/after',
      description: 'Edited',
      expire_in: '3 days',
    })) as unknown as Shape;
    assert.equal(edited.target, 'https://example.com/kutt/after');
    assert.equal(edited.description, 'Edited');
    assert.equal(edited.expire_in, new Date(NOW + 3 * DAY).toISOString());
    const body = { address: 'kutt-edit', target: 'https://example.com/kutt/after', description: 'Edited' };
    await refused(kutt.links().update(link.id, body), 400);
    await refused(kutt.links().update(link.id, { ...body, address: 'kutt-renamed' }), 400);
    await refused(kutt.links().update('no-such-link', body), 404);
  });

  it("answers stats for GET and for the package's DELETE, in Kutt's periods and names", async () => {
    const link = await kutt
      .links()
      .create({ target: 'https://example.com/kutt/stats', customurl: 'kutt-stats' });
    const seed = new VisitSeeder(t.store);
    await seed.visits(await linkIds(t.store, 'kutt-stats'), [
      { at: NOW - HOUR, browser: 'Chrome', os: 'Windows', country: 'DE', referrer: 'news.example' },
      { at: NOW - 3 * DAY, browser: 'Firefox', os: 'macOS', country: 'ZZ', referrer: 'direct' },
      { at: NOW - 40 * DAY, browser: 'Safari', os: 'iOS', country: 'US', referrer: 'www.google.com' },
      { at: NOW - 200 * DAY, browser: 'Microsoft Edge', os: 'Linux' },
    ]);
    const stats = (await kutt.links().stats(link.id)) as unknown as Record<string, Shape>;
    const viaGet = await v2('GET', '/links/kutt-stats/stats');
    assert.equal(viaGet.status, 200);
    assert.deepEqual(viaGet.body.lastYear, stats.lastYear);
    assert.equal(stats.id as unknown, 'kutt-stats');
    const { lastDay, lastWeek, lastMonth, lastYear } = stats as Record<
      string,
      { views: number[]; total: number }
    >;
    assert.deepEqual(lastDay?.views, [...new Array(22).fill(0), 1, 0]);
    assert.deepEqual(lastWeek?.views, [0, 0, 0, 1, 0, 0, 1]);
    assert.equal(lastMonth?.views.length, 30);
    assert.equal(lastMonth?.total, 2);
    assert.deepEqual(lastYear?.views, [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 2]);
    assert.equal(lastYear?.total, 4);
    const year = stats.lastYear?.stats as Record<string, Array<{ name: string; value: number }>>;
    const byName = (list: Array<{ name: string; value: number }> = []) =>
      Object.fromEntries(list.map((row) => [row.name, row.value]));
    assert.deepEqual(byName(year.browser), {
      chrome: 1,
      edge: 1,
      firefox: 1,
      ie: 0,
      opera: 0,
      other: 0,
      safari: 1,
    });
    assert.deepEqual(byName(year.os), { android: 0, ios: 1, linux: 1, macos: 1, other: 0, windows: 1 });
    assert.deepEqual(byName(year.country), { de: 1, unknown: 2, us: 1 });
    assert.deepEqual(byName(year.referrer), { direct: 2, 'news[dot]example': 1, 'google[dot]com': 1 });
    assert.deepEqual(
      year.browser?.slice(0, 4).map((row) => row.value),
      [1, 1, 1, 1],
    );
  });

  it('deletes a link, after which its id is not found', async () => {
    const link = await kutt.links().create({ target: 'https://example.com/kutt/gone' });
    assert.equal(await kutt.links().remove(link.id), 'Link has been deleted successfully.');
    await refused(kutt.links().remove(link.id), 404);
    await refused(kutt.links().stats(link.id), 404);
  });

  it('addresses a link on another domain as code@host, in paths as the package builds them', async () => {
    const link = (await kutt.links().create({
      target: 'https://example.com/kutt/acme',
      customurl: 'kutt-acme',
      domain: ACME,
    })) as unknown as Shape;
    assert.equal(link.id, `kutt-acme@${ACME}`);
    assert.equal(link.domain, ACME);
    assert.equal(link.link, `https://${ACME}/kutt-acme`);
    const id = String(link.id);
    const edited = await kutt
      .links()
      .update(id, { address: 'kutt-acme', target: 'https://example.com/kutt/acme2' });
    assert.equal(edited.target, 'https://example.com/kutt/acme2');
    assert.equal((await kutt.links().stats(id)).id, id);
    await kutt.links().remove(id);
    await refused(kutt.links().stats(id), 404);
    await refused(kutt.links().stats('kutt-acme@unknown.example'), 404);
  });

  it('answers users with the key, the workspace and its domains', async () => {
    const user = await kutt.users().info();
    assert.equal(user.apikey, t.apiKey);
    assert.equal(user.email, t.email);
    assert.deepEqual(
      user.domains.map((domain) => [domain.id, domain.address, domain.banned]),
      [[ACME, ACME, false]],
    );
  });

  it('adds no domain: one the workspace has is answered, others and removals are refused', async () => {
    const domain = await kutt.domains().create({ address: `https://${ACME}/` });
    assert.equal(domain.id, ACME);
    await refused(kutt.domains().create({ address: 'new.acme.example' }), 400);
    await refused(kutt.domains().create({ address: 'sn.ip' }), 400);
    await refused(kutt.domains().remove(ACME), 400);
  });

  it("refuses a missing or unknown key with 401 in Kutt's form", async () => {
    await refused(clientWith('not-a-snip-key').links().list(), 401);
    await refused(clientWith('').users().info(), 401);
  });

  it("takes the request ShareX's Kutt shortener sends, answering the `link` it reads", async () => {
    const fixture = JSON.parse(
      await readFile(new URL('../../fixtures/sharex/kutt-shorten.json', import.meta.url), 'utf8'),
    ) as { method: string; path: string; headers: Record<string, string>; body: Shape; reads: string };
    const headers = { ...fixture.headers, 'x-api-key': t.apiKey };
    const answer = await fetch(`${base}${fixture.path}`, {
      method: fixture.method,
      headers,
      body: JSON.stringify(fixture.body),
    });
    assert.equal(answer.status, 201);
    const body = (await answer.json()) as Shape;
    assert.match(String(body[fixture.reads]), /^https:\/\/sn\.ip\/[0-9A-Za-z]{7}$/);
    const again = await fetch(`${base}${fixture.path}`, {
      method: fixture.method,
      headers,
      body: JSON.stringify({ ...fixture.body, reuse: true }),
    });
    assert.equal(again.status, 200);
    assert.equal(((await again.json()) as Shape)[fixture.reads], body[fixture.reads]);
  });
});
