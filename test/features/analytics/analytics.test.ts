import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import postgres from 'postgres';
import { RedisVisitors } from '../../../src/adapters/redis/visitors.ts';
import type { StatsRange } from '../../../src/core/analytics/model.ts';
import { callApi } from '../../fixtures/api-client.ts';
import { utcToday } from '../../fixtures/utc-today.ts';
import { send, startTestApp, type TestApp, type TestAppOptions } from '../../helper.ts';

/** Visit analytics through the real redirect (docs/api.md §9.1–9.2): what is kept, and what never is. */

const DAY_MS = 86_400_000;
const NOW = Date.UTC(2026, 10, 24, 15, 30);
const TODAY = { from: Date.UTC(2026, 10, 24), to: Date.UTC(2026, 10, 25), interval: 'day' } as const;
const FIREFOX_ANDROID =
  'Mozilla/5.0 (Android 14; Mobile; rv:132.0) Gecko/132.0 Firefox/132.0 snip-privacy-probe';
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ADDRESS = '198.51.100.77';
const REFERER = 'https://mail.example.net/inbox/private-thread-4711?token=abc';

const countries = { countryOf: (address: string) => (address === ADDRESS ? 'BR' : undefined) };

async function makeLink(
  t: TestApp,
  slug: string,
): Promise<{ code: string; id: number; workspaceId: number }> {
  const answer = await callApi(t.app, 'POST', '/links', {
    key: t.apiKey,
    body: { url: `https://example.com/${slug}`, slug },
  });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  const link = await t.store.findLinkByCode(0, slug);
  assert.ok(link);
  return { code: slug, id: link.id, workspaceId: link.workspaceId };
}

function click(t: TestApp, path: string, headers: Record<string, string>, remoteAddress = ADDRESS) {
  return send(t.app, { method: 'GET', url: path, headers, remoteAddress });
}

/** Everything a run leaves: the log lines it wrote. */
function logSink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: { level: 'info', stream } as TestAppOptions['logger'] };
}

/** Clicks that carry everything a visitor could be known by, then a flush and a stats check. */
async function traffic(t: TestApp, slug: string) {
  const link = await makeLink(t, slug);
  const headers = { 'user-agent': FIREFOX_ANDROID, referer: REFERER, 'accept-language': 'pt-BR,pt;q=0.9' };
  for (const path of [`/${slug}`, `/${slug}?qr=1`, `/${slug}`]) {
    const answer = await click(t, path, headers);
    assert.equal(answer.status, 302);
    assert.equal(answer.headers.location, `https://example.com/${slug}`);
  }
  await t.app.clicks.flush();
  return link;
}

/** The raw facts of the probe visitor must appear in none of these texts. */
function assertNothingIdentifying(where: string, text: string) {
  for (const secret of [
    ADDRESS,
    'snip-privacy-probe',
    'Gecko/132.0',
    'private-thread-4711',
    'token=abc',
    'mail.example.net/inbox',
  ]) {
    assert.equal(text.includes(secret), false, `${where} holds "${secret}"`);
  }
}

describe('visit analytics on the redirect', () => {
  let t: TestApp;
  let now = NOW;
  const logs = logSink();
  before(async () => {
    t = await startTestApp({ now: () => now, countries, logger: logs.logger });
  });
  after(() => t.close());

  it('records referrer host, country, device, OS, browser, language and source of each human click', async () => {
    const link = await traffic(t, 'enriched');
    await click(t, '/enriched', { 'user-agent': CHROME_MAC, 'cf-ipcountry': 'KP' }, '2001:db8::1');
    await click(t, '/enriched', { 'user-agent': 'curl/8.5.0' });
    await t.app.clicks.flush();
    const stats = await t.store.stats({ linkId: link.id }, TODAY);
    assert.deepEqual(stats.totals, { clicks: 4, uniqueVisitors: 2, botHits: 1, qrScans: 1 });
    const rows = (dimension: keyof typeof stats.breakdowns) =>
      Object.fromEntries(stats.breakdowns[dimension].map((row) => [row.value, row.clicks]));
    assert.deepEqual(rows('referrer'), { 'mail.example.net': 3, direct: 1 });
    // The forged CF-IPCountry is ignored without TRUST_PROXY; an unknown address is ZZ.
    assert.deepEqual(rows('country'), { BR: 3, ZZ: 1 });
    assert.deepEqual(rows('device'), { mobile: 3, desktop: 1 });
    assert.deepEqual(rows('os'), { Android: 3, macOS: 1 });
    assert.deepEqual(rows('browser'), { Firefox: 3, Chrome: 1 });
    assert.deepEqual(rows('language'), { pt: 3, unknown: 1 });
    assert.deepEqual(rows('source'), { link: 3, qr: 1 });
    assert.deepEqual(rows('bot'), { curl: 1 });
  });

  it('stores, logs and keeps in memory nothing that identifies the visitor (SQLite file and logs)', async () => {
    await traffic(t, 'private1');
    const dir = dirname(t.config.databaseUrl.slice('sqlite:'.length));
    // The database and its write-ahead log, read as bytes: nothing of the visitor in either.
    for (const file of await readdir(dir)) {
      const bytes = await readFile(`${dir}/${file}`);
      assertNothingIdentifying(file, bytes.toString('latin1'));
      assertNothingIdentifying(`${file} (UTF-16)`, bytes.toString('utf16le'));
    }
    assertNothingIdentifying('the log', logs.lines.join('\n'));
  });

  it('keeps raw events for the retention, then only the daily aggregates', async () => {
    now = NOW - 100 * DAY_MS;
    const link = await traffic(t, 'oldclicks');
    const oldDay: StatsRange = { from: Date.UTC(2026, 7, 16), to: Date.UTC(2026, 7, 17), interval: 'day' };
    const oldHours: StatsRange = { ...oldDay, interval: 'hour' };
    const before = await t.store.stats({ linkId: link.id }, oldDay);
    assert.equal(before.totals.clicks, 3);
    assert.equal((await t.store.stats({ linkId: link.id }, oldHours)).totals.clicks, 3);
    now = NOW;
    assert.ok((await t.app.retention.sweep()) >= 3);
    assert.deepEqual(await t.store.stats({ linkId: link.id }, oldDay), before);
    assert.equal((await t.store.stats({ linkId: link.id }, oldHours)).totals.clicks, 0);
  });
});

describe('privacy switches through the app', () => {
  it('TRACKING=off keeps the totals only, minimal the days, and DNT makes one click minimal', async () => {
    for (const tracking of ['off', 'minimal', 'full'] as const) {
      const t = await startTestApp({ now: () => NOW, countries, env: { TRACKING: tracking } });
      try {
        const link = await makeLink(t, `mode-${tracking}`);
        await click(t, `/${link.code}`, { 'user-agent': CHROME_MAC, referer: REFERER });
        await click(t, `/${link.code}`, { 'user-agent': CHROME_MAC, dnt: '1' });
        await t.app.clicks.flush();
        const stats = await t.store.stats({ linkId: link.id }, TODAY);
        assert.equal((await t.store.findLinkByCode(0, link.code))?.clicks, 2, tracking);
        assert.equal(stats.totals.clicks, tracking === 'off' ? 0 : 2, tracking);
        const referred = stats.breakdowns.referrer.reduce((sum, row) => sum + row.clicks, 0);
        assert.equal(referred, tracking === 'full' ? 1 : 0, tracking);
      } finally {
        await t.close();
      }
    }
  });

  it('TRACKING_EXCLUDE counts nothing from those networks', async () => {
    const t = await startTestApp({
      now: () => NOW,
      env: { TRACKING_EXCLUDE: '198.51.100.0/24, 2001:db8::/32' },
    });
    try {
      const link = await makeLink(t, 'excluded');
      assert.equal((await click(t, '/excluded', { 'user-agent': CHROME_MAC })).status, 302);
      await click(t, '/excluded', { 'user-agent': CHROME_MAC }, '::ffff:198.51.100.5');
      await click(t, '/excluded', { 'user-agent': CHROME_MAC }, '2001:db8::9');
      await click(t, '/excluded', { 'user-agent': CHROME_MAC }, '203.0.113.1');
      await t.app.clicks.flush();
      assert.equal((await t.store.findLinkByCode(0, link.code))?.clicks, 1);
    } finally {
      await t.close();
    }
  });
});

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

describe('nothing identifying on PostgreSQL and Redis', {
  skip: !databaseUrl || !redisUrl ? 'TEST_DATABASE_URL and TEST_REDIS_URL are not both set' : false,
}, () => {
  it('leaves no address, user agent or referrer URL in a pg_dump or in Redis after traffic', async () => {
    const name = `snip_privacy_${randomBytes(5).toString('hex')}`;
    const admin = postgres(databaseUrl as string, { max: 1, onnotice: () => {} });
    const url = new URL(databaseUrl as string);
    url.pathname = `/${name}`;
    const redis = new Redis(redisUrl as string);
    const prefix = `${name}:`;
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const logs = logSink();
    let t: TestApp | undefined;
    try {
      t = await startTestApp({
        now: () => Date.now(),
        countries,
        logger: logs.logger,
        env: { DATABASE_URL: url.href },
        visitors: new RedisVisitors(redis, prefix),
      });
      const link = await traffic(t, 'private2');
      const today = utcToday();
      const stats = await t.store.stats(
        { linkId: link.id },
        { from: today, to: today + DAY_MS, interval: 'day' },
      );
      assert.equal(stats.totals.clicks, 3);
      assert.equal(stats.totals.uniqueVisitors, 1);
      const { stdout } = await promisify(execFile)('pg_dump', ['--data-only', url.href], {
        maxBuffer: 64 * 1024 * 1024,
      });
      assert.ok(stdout.includes('mail.example.net'), 'the dump holds the events');
      assertNothingIdentifying('pg_dump', stdout);
      const keys = await redis.keys(`${prefix}*`);
      assert.ok(keys.length >= 3, `keys ${keys}`);
      const values: string[] = [];
      for (const key of keys) {
        const type = await redis.type(key);
        values.push(key, ...(type === 'set' ? await redis.smembers(key) : [String(await redis.get(key))]));
      }
      assertNothingIdentifying('Redis', values.join('\n'));
      assertNothingIdentifying('the log', logs.lines.join('\n'));
    } finally {
      await t?.close();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
