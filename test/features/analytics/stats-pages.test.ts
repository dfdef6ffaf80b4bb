import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Link } from '../../../src/core/entities.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';
import { DAY_MS, dayOf, givenLinkOf, seedVisits, startOfToday } from './stats-seed.ts';

/** /w/<slug>/stats and /w/<slug>/links/<code>/stats: the range picker, totals, series, breakdowns, CSV. */

const PASSWORD = 'correct horse battery';

const newLink = (t: TestApp, email: string, code: string) => givenLinkOf(t.store, email, code);

const totalOf = (body: string, name: string) => new RegExp(`data-total="${name}">([^<]*)<`).exec(body)?.[1];
const sectionOf = (body: string, id: string) =>
  new RegExp(`<section[^>]* id="${id}"[\\s\\S]*?</section>`).exec(body)?.[0] ?? '';
/** A row of a bar list (a breakdown's by-<dimension>, or top-links), by its data-value. */
const rowOf = (body: string, where: string, value: string) =>
  new RegExp(`<li data-value="${value}">([\\s\\S]*?)</li>`).exec(sectionOf(body, where))?.[1];
const figuresOf = (row: string | undefined) =>
  /class="bar-figure">([^<]*)<[\s\S]*class="bar-share">([^<]*)</.exec(row ?? '')?.slice(1);
/** Regional indicator symbols, of which emoji flags are made. */
const EMOJI_FLAG = /[\u{1F1E6}-\u{1F1FF}]/u;
const csvLines = (body: string) => body.split('\r\n').filter(Boolean);

describe('visit stats pages', () => {
  let t: TestApp;
  let client: PageClient;
  let other: PageClient;
  let busy: Link;
  let quiet: Link;
  let theirs: Link;

  before(async () => {
    t = await startTestApp();
    await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
    await t.ops.createAccount('eve@example.com', 'tester', PASSWORD);
    client = new PageClient(t.app);
    assert.equal((await client.signIn('ada@example.com', PASSWORD)).statusCode, 303);
    other = new PageClient(t.app);
    assert.equal((await other.signIn('eve@example.com', PASSWORD)).statusCode, 303);
    busy = await newLink(t, 'ada@example.com', 'busy001');
    quiet = await newLink(t, 'ada@example.com', 'quiet01');
    theirs = await newLink(t, 'eve@example.com', 'their01');
    await seedVisits(
      t.store,
      busy,
      [
        { daysAgo: 0, hour: 9, country: 'DE', language: 'de', referrer: 'news.example.org', source: 'qr' },
        {
          daysAgo: 0,
          hour: 9,
          country: 'DE',
          language: 'de',
          device: 'mobile',
          os: 'iOS',
          browser: 'Safari',
        },
        { daysAgo: 2, country: 'ZZ', referrer: '=1+2', browser: 'Firefox' },
        { daysAgo: 10, country: 'FR', language: 'fr', referrer: 'a,b "c"' },
        { daysAgo: 200, country: 'JP' },
      ],
      [{ daysAgo: 2, kind: 'prefetch', hits: 3 }],
    );
    await seedVisits(t.store, theirs, [
      { daysAgo: 1, country: 'US' },
      { daysAgo: 1, country: 'US' },
    ]);
  });

  after(async () => {
    await t?.close();
  });

  it('shows one link over the last 30 days: totals, bars per day, every breakdown with its share', async () => {
    const page = await client.get(client.at('/links/busy001/stats'));
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.equal(page.headers['cache-control'], 'no-store');
    const body = page.body;
    assert.equal(totalOf(body, 'clicks'), '4');
    assert.equal(totalOf(body, 'unique_visitors'), '4');
    assert.equal(totalOf(body, 'bot_hits'), '3');
    assert.equal(totalOf(body, 'qr_scans'), '1');
    assert.match(body, /<a href="[^"]*" aria-current="true" data-days="30">/);
    assert.equal(
      attribute(body, 'data-range'),
      `${dayOf(startOfToday() - 29 * DAY_MS)}T00:00:00Z/${dayOf(startOfToday() + DAY_MS)}T00:00:00Z`,
    );
    // 30 bars, 3 of them with clicks; the numbers in a table for screen readers.
    assert.equal(attribute(body, 'class="chart" data-total'), '4');
    assert.equal((body.match(/<g transform=/g) ?? []).length, 3);
    assert.match(
      body,
      /<th scope="col">Day<\/th><th scope="col">Clicks<\/th><th scope="col">Unique visitors<\/th>/,
    );
    // Countries: their flag image and English name, ZZ as Unknown (no code, no flag); shares of 4.
    const germany = rowOf(body, 'by-country', 'DE');
    assert.match(
      germany ?? '',
      /<img class="flag" src="\/assets\/flags\/de\.svg" alt="" width="20" height="15"><span><a href="[^"]*\?country=DE">Germany<\/a><\/span>/,
    );
    assert.deepEqual(figuresOf(germany), ['2', '50%']);
    const unknown = rowOf(body, 'by-country', 'ZZ') ?? '';
    assert.match(unknown, /<span><a href="[^"]*">Unknown<\/a><\/span>/);
    assert.ok(!unknown.includes('<img') && !unknown.includes('>ZZ'), unknown);
    assert.deepEqual(figuresOf(unknown), ['1', '25%']);
    assert.match(rowOf(body, 'by-country', 'FR') ?? '', /flags\/fr\.svg" [^>]*><span><a [^>]*>France</);
    assert.equal(
      rowOf(body, 'by-country', 'JP'),
      undefined,
      'the click of 200 days ago is outside the range',
    );
    assert.doesNotMatch(body, EMOJI_FLAG);
    // Each bar as long as its value against the largest of its list.
    assert.match(germany ?? '', /<rect class="bar-fill" width="100\.00" height="1"\/>/);
    assert.match(
      rowOf(body, 'by-country', 'FR') ?? '',
      /<rect class="bar-fill" width="50\.00" height="1"\/>/,
    );
    assert.match(rowOf(body, 'by-language', 'de') ?? '', />German<\/a><\/span>/);
    assert.match(rowOf(body, 'by-language', 'unknown') ?? '', /Not sent/);
    assert.match(rowOf(body, 'by-referrer', 'direct') ?? '', /Direct \(no referrer\)/);
    assert.match(rowOf(body, 'by-source', 'qr') ?? '', /QR code/);
    assert.match(rowOf(body, 'by-device', 'mobile') ?? '', /Mobile/);
    assert.match(rowOf(body, 'by-os', 'iOS') ?? '', /iOS/);
    assert.match(rowOf(body, 'by-browser', 'Firefox') ?? '', /Firefox/);
    assert.match(rowOf(body, 'by-bot', 'prefetch') ?? '', /Prefetches/);
    assert.deepEqual(figuresOf(rowOf(body, 'by-bot', 'prefetch')), ['3', '100%']);
    // One link's page lists no top links; untitled, it is headed by its short URL, the code whole.
    assert.equal(sectionOf(body, 'top-links'), '');
    assert.match(
      body,
      /<h1 class="short-url" data-code="busy001"><span class="host">[^<]+\/<\/span><span class="code">busy001<\/span><\/h1>/,
    );
    // Hostile values are text, never markup.
    assert.ok(!body.includes('a,b "c"'));
    assert.match(body, /data-value="a,b &#34;c&#34;"/);
    // The CSV of the same range, and the way back to the link.
    assert.match(
      body,
      /href="\/w\/[a-z0-9-]+\/links\/busy001\/stats\.csv\?from=[^"]+&#38;interval=day" download>Download CSV</,
    );
    assert.match(body, /href="\/w\/[a-z0-9-]+\/links\/busy001">← Link busy001</);
  });

  it('switches to the last 7 days, and to hourly bars within the retention', async () => {
    const today = startOfToday();
    const week = await client.get(
      client.at(`/links/busy001/stats?from=${dayOf(today - 6 * DAY_MS)}&to=${dayOf(today)}`),
    );
    assert.equal(week.statusCode, 200);
    assert.equal(totalOf(week.body, 'clicks'), '3');
    assert.match(week.body, /aria-current="true" data-days="7"/);
    assert.equal(rowOf(week.body, 'by-country', 'FR'), undefined);
    assert.match(week.body, /<option value="hour">Hour<\/option>/);

    const hours = await client.get(
      client.at(`/links/busy001/stats?from=${dayOf(today)}&to=${dayOf(today)}&interval=hour`),
    );
    assert.equal(hours.statusCode, 200);
    assert.equal(totalOf(hours.body, 'clicks'), '2');
    assert.match(hours.body, /<option value="hour" selected>Hour<\/option>/);
    assert.match(hours.body, new RegExp(`<title>${dayOf(today)} 09:00: 2 clicks, 2 unique visitors</title>`));
    assert.match(hours.body, /<th scope="col">Hour<\/th>/);

    // Beyond the retention (90 days here) only days can be asked for.
    const old = await client.get(
      client.at(`/links/busy001/stats?from=${dayOf(today - 300 * DAY_MS)}&to=${dayOf(today - 100 * DAY_MS)}`),
    );
    assert.equal(old.statusCode, 200);
    assert.equal(totalOf(old.body, 'clicks'), '1');
    assert.ok(!old.body.includes('<option value="hour"'));
    assert.match(rowOf(old.body, 'by-country', 'JP') ?? '', /Japan/);
  });

  it('answers a range it cannot read with the page, the reason and the last 30 days, never a 500', async () => {
    const today = startOfToday();
    for (const query of [
      'from=yesterday',
      'to=2024-02-30',
      `from=${dayOf(today)}&to=${dayOf(today - 5 * DAY_MS)}`,
      'interval=minute',
      `from=${dayOf(today - 200 * DAY_MS)}&interval=hour`,
      'from=2020-01-01&to=2024-01-01',
    ]) {
      for (const path of [client.at('/stats'), client.at('/links/busy001/stats')]) {
        const page = await client.get(`${path}?${query}`);
        assert.equal(page.statusCode, 400, `${path}?${query}`);
        assert.match(page.body, /data-error="range-invalid"/, query);
        assert.match(page.body, /aria-current="true" data-days="30"/, query);
        assert.match(page.body, /data-total="clicks"/, query);
      }
    }
    // Empty fields, as the form sends them, are the defaults.
    const blank = await client.get(client.at('/stats?from=&to=&interval='));
    assert.equal(blank.statusCode, 200);
    assert.match(blank.body, /aria-current="true" data-days="30"/);
  });

  it('sums every link of the account, and only of that account', async () => {
    const page = await client.get(client.at('/stats'));
    assert.equal(page.statusCode, 200);
    assert.equal(totalOf(page.body, 'clicks'), '4');
    assert.equal(rowOf(page.body, 'by-country', 'US'), undefined);
    assert.match(page.body, /<a href="\/w\/[a-z0-9-]+\/stats" aria-current="page">Stats<\/a>/);
    const theirsPage = await other.get(other.at('/stats'));
    assert.equal(totalOf(theirsPage.body, 'clicks'), '2');
    assert.match(rowOf(theirsPage.body, 'by-country', 'US') ?? '', /United States/);
  });

  it("lists the workspace's most clicked links of the range, each leading to its page", async () => {
    await t.ops.createAccount('tia@example.com', 'tester', PASSWORD);
    const tia = new PageClient(t.app);
    await tia.signIn('tia@example.com', PASSWORD);
    const empty = await tia.get(tia.at('/stats'));
    assert.match(sectionOf(empty.body, 'top-links'), /data-state="empty"/);

    const launch = await givenLinkOf(
      t.store,
      'tia@example.com',
      'launch1',
      'https://example.com/l',
      'Launch post',
    );
    const plain = await givenLinkOf(t.store, 'tia@example.com', 'plain01');
    const old = await givenLinkOf(t.store, 'tia@example.com', 'old0001', 'https://example.com/o', 'Old news');
    const day = (daysAgo: number) => ({ daysAgo });
    await seedVisits(t.store, launch, [day(0), day(1), day(3)]);
    await seedVisits(t.store, plain, [day(2)]);
    await seedVisits(t.store, old, [day(40), day(41), day(42), day(43)]);
    const page = await tia.get(tia.at('/stats'));
    assert.equal(page.statusCode, 200);
    const top = sectionOf(page.body, 'top-links');
    assert.deepEqual(
      [...top.matchAll(/<li data-value="([^"]+)">/g)].map((match) => match[1]),
      ['launch1', 'plain01'],
      'the clicks of 40 days ago are outside the last 30 days',
    );
    assert.match(
      rowOf(page.body, 'top-links', 'launch1') ?? '',
      /<a href="\/w\/[a-z0-9-]+\/links\/launch1">Launch post<\/a>/,
    );
    assert.deepEqual(figuresOf(rowOf(page.body, 'top-links', 'launch1')), ['3', '75%']);
    assert.match(
      rowOf(page.body, 'top-links', 'plain01') ?? '',
      /<a href="\/w\/[a-z0-9-]+\/links\/plain01">plain01<\/a>/,
    );

    const today = startOfToday();
    const longAgo = await tia.get(
      tia.at(`/stats?from=${dayOf(today - 45 * DAY_MS)}&to=${dayOf(today - 40 * DAY_MS)}`),
    );
    assert.deepEqual(figuresOf(rowOf(longAgo.body, 'top-links', 'old0001')), ['4', '100%']);
    assert.equal(rowOf(longAgo.body, 'top-links', 'launch1'), undefined);
  });

  it('serves the flags the page shows as SVG images from its own assets', async () => {
    const flag = await t.app.inject({ method: 'GET', url: '/assets/flags/de.svg' });
    assert.equal(flag.statusCode, 200);
    assert.equal(flag.headers['content-type'], 'image/svg+xml');
    assert.match(flag.body, /^<svg /);
    const again = await t.app.inject({
      method: 'GET',
      url: '/assets/flags/de.svg',
      headers: { 'if-none-match': String(flag.headers.etag) },
    });
    assert.equal(again.statusCode, 304);
    for (const name of ['zz.svg', 'DE.svg', 'de.png', 'gb-eng.svg', '..%2Fpackage.json']) {
      const answer = await t.app.inject({ method: 'GET', url: `/assets/flags/${name}` });
      assert.equal(answer.statusCode, 404, name);
    }
  });

  it('says what will appear while there is nothing to show', async () => {
    const page = await client.get(client.at('/links/quiet01/stats'));
    assert.equal(page.statusCode, 200);
    assert.equal(totalOf(page.body, 'clicks'), '0');
    assert.match(page.body, /data-state="no-clicks"><p>Clicks will appear here once the link is clicked/);
    assert.match(page.body, /The sites visitors came from will appear here once the link is clicked\./);
    assert.match(page.body, /Countries, with their flags, will appear here/);
    // The eight breakdowns and the referrer sources; the campaign ones only once they have rows.
    assert.equal((page.body.match(/data-state="empty"/g) ?? []).length, 9);
    const fresh = new PageClient(t.app);
    await t.ops.createAccount('new@example.com', 'tester', PASSWORD);
    await fresh.signIn('new@example.com', PASSWORD);
    const account = await fresh.get(fresh.at('/stats'));
    assert.match(account.body, /Clicks will appear here once one of your links is clicked/);
  });

  it('says when clicks and bot hits came without details (tracking minimal or off)', async () => {
    const bare = await newLink(t, 'ada@example.com', 'bare001');
    await t.store.addClicks([{ linkId: bare.id, day: dayOf(startOfToday()), clicks: 5, botHits: 2 }]);
    const page = await client.get(client.at('/links/bare001/stats'));
    assert.equal(totalOf(page.body, 'clicks'), '5');
    assert.equal(attribute(page.body, 'class="chart" data-total'), '5');
    assert.equal((page.body.match(/data-state="no-details"/g) ?? []).length, 9);
    assert.match(page.body, /No kinds were recorded for these bot hits/);
  });

  it('downloads the breakdowns and the series as CSV, cells safe from formulas', async () => {
    const today = startOfToday();
    const answer = await client.get(
      client.at(`/links/busy001/stats.csv?from=${dayOf(today - 6 * DAY_MS)}&to=${dayOf(today)}`),
    );
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(
      answer.headers['content-disposition'],
      `attachment; filename="snip-stats-busy001-${dayOf(today - 6 * DAY_MS)}-to-${dayOf(today)}.csv"`,
    );
    const lines = csvLines(answer.body);
    assert.deepEqual(lines.slice(0, 4), [
      'dimension,value,clicks,unique_visitors,leads,sales,revenue',
      'total,all,3,3,0,0,',
      'total,bot_hits,3,,,,',
      'total,qr_scans,1,,,,',
    ]);
    const series = lines.filter((line) => line.startsWith('series,'));
    assert.equal(series.length, 7);
    assert.equal(series.at(-1), `series,${dayOf(today)}T00:00:00Z,2,2,0,0,`);
    assert.ok(lines.includes("referrer,'=1+2,1,,,,"), 'a formula is defused');
    assert.ok(lines.includes('country,DE,2,,,,'));
    assert.ok(lines.includes('country,ZZ,1,,,,'));
    assert.ok(lines.includes('source,qr,1,,,,'));
    assert.ok(lines.includes('bot,prefetch,3,,,,'));
    assert.ok(!lines.some((line) => line.startsWith('country,FR')), '10 days ago is outside the week');

    const month = await client.get(client.at('/links/busy001/stats.csv'));
    assert.ok(csvLines(month.body).includes('referrer,"a,b ""c""",1,,,,'), 'quotes and commas are quoted');

    const account = await client.get(client.at(`/stats.csv?interval=hour&from=${dayOf(today)}`));
    assert.equal(account.statusCode, 200);
    assert.match(String(account.headers['content-disposition']), /filename="snip-stats-account-/);
    assert.equal(csvLines(account.body).filter((line) => line.startsWith('series,')).length, 24);
  });

  it("refuses a CSV of a bad range, and anyone else's or an unknown link, as pages", async () => {
    const bad = await client.get(client.at('/stats.csv?from=soon'));
    assert.equal(bad.statusCode, 400);
    assert.match(String(bad.headers['content-type']), /^text\/html/);
    assert.match(bad.body, /data-error="range-invalid"/);
    for (const path of [
      client.at(`/links/${theirs.code}/stats`),
      client.at(`/links/${theirs.code}/stats.csv`),
      client.at('/links/nothing/stats'),
    ]) {
      const answer = await client.get(path);
      assert.equal(answer.statusCode, 404, path);
      assert.match(answer.body, /data-error="not-found"/, path);
    }
    for (const path of [
      client.at('/stats'),
      client.at('/stats.csv'),
      client.at('/links/busy001/stats'),
      client.at('/links/busy001/stats.csv'),
    ]) {
      const answer = await t.app.inject({ method: 'GET', url: path });
      assert.equal(answer.statusCode, 303, path);
      assert.equal(answer.headers.location, '/login', path);
    }
  });

  it('is linked from the link page and the dashboard', async () => {
    assert.match(
      (await client.get(client.at('/links/busy001'))).body,
      /href="\/w\/[a-z0-9-]+\/links\/busy001\/stats"/,
    );
    assert.match((await client.get(client.at(''))).body, /href="\/w\/[a-z0-9-]+\/stats"/);
    assert.ok(quiet.id > 0);
  });
});
