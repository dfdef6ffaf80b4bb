import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callApi } from '../../fixtures/api-client.ts';
import { PageClient } from '../../fixtures/page-client.ts';
import type { TestApp } from '../../helper.ts';
import { linkIds, STORES, VisitSeeder } from './stats-seed.ts';

/**
 * The stats pages answer questions (docs/api.md §19): each breakdown row narrows the page to its
 * value, the filters in force are chips that take one off, the CSV follows them, the comparison
 * shows each total's change, the zone is named — on both stores. Today is 31 March 2026.
 */

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 2, 31, 12);
const PASSWORD = 'correct horse battery';
const WEEK = 'from=2026-03-25&to=2026-03-31';

const sectionOf = (body: string, id: string) =>
  new RegExp(`<section[^>]* id="${id}"[\\s\\S]*?</section>`).exec(body)?.[0] ?? '';
const rowOf = (body: string, where: string, value: string) =>
  new RegExp(`<li data-value="${value}">([\\s\\S]*?)</li>`).exec(sectionOf(body, where))?.[1] ?? '';
const unescaped = (text: string) => text.replace(/&#38;/g, '&');
/** The query of the first link in `markup`, as fields. */
const linkOf = (markup: string) => {
  const href = /href="([^"]*)"/.exec(markup)?.[1];
  assert.ok(href, `no link in ${markup}`);
  const url = new URL(unescaped(href), 'http://snip.test');
  return { path: `${url.pathname}${url.search}`, fields: Object.fromEntries(url.searchParams) };
};
const chipOf = (body: string, name: string) =>
  new RegExp(`<a class="chip" [^>]*data-drop="${name}">[\\s\\S]*?</a>`).exec(body)?.[0] ?? '';
const totalOf = (body: string, name: string) => new RegExp(`data-total="${name}">([^<]*)<`).exec(body)?.[1];
const changeOf = (body: string, name: string) =>
  new RegExp(`data-total="${name}">[^<]*</dd><dd class="change" data-change="([a-z]+)">([\\s\\S]*?)</dd>`)
    .exec(body)
    ?.slice(1)
    .map((text) => text.replace(/<[^>]+>/g, ''));

for (const kind of STORES) {
  describe(`stats pages with filters, comparison and zone (${kind.name})`, { skip: kind.skip }, () => {
    let t: TestApp;
    let client: PageClient;
    let key: string;
    const page = async (path: string, status = 200) => {
      // A path the page links to is whole already.
      const answer = await client.get(path.startsWith('/w/') ? path : client.at(path));
      assert.equal(answer.statusCode, status, path);
      return answer.body;
    };

    before(async () => {
      t = await kind.start({ now: () => NOW, env: { ANALYTICS_RETENTION_DAYS: '10' } });
      key = (await t.ops.createAccount('ada@example.com', 'tester', PASSWORD)).apiKey;
      client = new PageClient(t.app);
      assert.equal((await client.signIn('ada@example.com', PASSWORD)).statusCode, 303);
      for (const [slug, url] of [
        ['promo', 'https://example.com/sale?utm_source=news&utm_medium=email&utm_campaign=spring'],
        ['plain', 'https://example.com/plain'],
      ]) {
        const made = await callApi(t.app, 'POST', '/links', { key, body: { url, slug } });
        assert.equal(made.status, 201, JSON.stringify(made.body));
      }
      const promo = await linkIds(t.store, 'promo');
      const plain = await linkIds(t.store, 'plain');
      const seed = new VisitSeeder(t.store);
      const at = NOW - DAY;
      await seed.visits(promo, [
        { at, country: 'DE', device: 'mobile', referrer: 'www.google.de' },
        { at, country: 'DE', device: 'desktop', referrer: 'google.com', source: 'qr' },
        { at, country: 'FR', device: 'mobile', referrer: 'news.example' },
      ]);
      await seed.visits(plain, [
        { at: NOW - 2 * DAY, country: 'US', referrer: 't.co' },
        { at: NOW - 2 * DAY, country: 'DE' },
      ]);
      // The week before: one click, kept; and one long ago, only in the daily figures.
      await seed.visits(promo, [{ at: NOW - 9 * DAY, country: 'DE' }]);
      await seed.visits(plain, [{ at: NOW - 20 * DAY, country: 'DE' }]);
    });
    after(() => t?.close());

    it('links each breakdown row to the page with its filter added, keeping range and filters', async () => {
      const body = await page(`/stats?${WEEK}&interval=day&device=mobile`);
      const germany = linkOf(rowOf(body, 'by-country', 'DE'));
      assert.match(germany.path, /^\/w\/[a-z0-9-]+\/stats\?/);
      assert.deepEqual(germany.fields, {
        from: '2026-03-25',
        to: '2026-03-31',
        interval: 'day',
        device: 'mobile',
        country: 'DE',
      });
      // The value filtered by is no link; a row of every other breakdown is.
      assert.doesNotMatch(rowOf(body, 'by-device', 'mobile'), /href=/);
      assert.equal(linkOf(rowOf(body, 'by-referrer', 'news.example')).fields.referrer, 'news.example');
      assert.equal(linkOf(rowOf(body, 'by-source', 'link')).fields.source, 'link');
      assert.equal(linkOf(rowOf(body, 'by-language', 'en')).fields.language, 'en');
      assert.equal(linkOf(rowOf(body, 'by-browser', 'Chrome')).fields.browser, 'Chrome');
      assert.equal(linkOf(rowOf(body, 'by-utm-source', 'news')).fields.utm_source, 'news');
      assert.equal(linkOf(rowOf(body, 'by-utm-campaign', 'spring')).fields.utm_campaign, 'spring');
      const followed = await page(germany.path);
      assert.equal(totalOf(followed, 'clicks'), '1');
    });

    it('drills from a referrer source to its hosts', async () => {
      const body = await page(`/stats?${WEEK}`);
      const google = linkOf(rowOf(body, 'by-referrer-source', 'Google'));
      assert.equal(google.fields.referrer, 'Google');
      const hosts = await page(google.path);
      assert.ok(rowOf(hosts, 'by-referrer', 'www.google.de'));
      assert.ok(rowOf(hosts, 'by-referrer', 'google.com'));
      assert.equal(rowOf(hosts, 'by-referrer', 'news.example'), '');
      assert.equal(totalOf(hosts, 'clicks'), '2');
      assert.match(chipOf(hosts, 'referrer'), /Referrer: Google/);
    });

    it('shows the filters as chips in words; each takes its own off, Clear all takes them all', async () => {
      const body = await page(`/stats?${WEEK}&country=de&source=qr&utm_source=news`);
      assert.equal(totalOf(body, 'clicks'), '1');
      assert.match(chipOf(body, 'country'), /Country: Germany/);
      assert.match(chipOf(body, 'source'), /Came by: QR code/);
      assert.match(chipOf(body, 'utm_source'), /Campaign source: news/);
      const without = linkOf(chipOf(body, 'country'));
      assert.deepEqual(without.fields, {
        from: '2026-03-25',
        to: '2026-03-31',
        source: 'qr',
        utm_source: 'news',
      });
      const clear = linkOf(/<a class="clear-all"[^>]*>/.exec(body)?.[0] ?? '');
      assert.deepEqual(clear.fields, { from: '2026-03-25', to: '2026-03-31' });
      assert.equal(totalOf(await page(clear.path), 'clicks'), '5');
      assert.doesNotMatch(await page(clear.path), /class="chip"/);
      // The top links count every click, and say so; a filter no click matches says that.
      assert.match(body, /data-state="unfiltered"/);
      const none = await page(`/stats?${WEEK}&country=JP`);
      assert.match(sectionOf(none, 'by-referrer'), /data-state="no-match"/);
      assert.match(sectionOf(none, 'by-bot'), /data-state="no-match"/);
      assert.doesNotMatch(await page(`/stats?${WEEK}`), /data-state="(unfiltered|no-match)"/);
      // A value no filter takes is a refused page of the default figures, with no chip to keep it.
      const refused = await page('/stats?country=Germany', 400);
      assert.doesNotMatch(refused, /class="chip"|country=Germany/);
    });

    it('lets the CSV download follow the filters and the zone, not the comparison', async () => {
      const body = await page(`/stats?${WEEK}&country=DE&tz=Europe/Berlin&compare=previous`);
      const download = linkOf(
        /<a class="button secondary small" href="[^"]*" download>/.exec(body)?.[0] ?? '',
      );
      assert.match(download.path, /\/stats\.csv\?/);
      assert.equal(download.fields.country, 'DE');
      assert.equal(download.fields.tz, 'Europe/Berlin');
      assert.equal(download.fields.compare, undefined);
      const csv = await client.get(download.path);
      assert.equal(csv.statusCode, 200);
      assert.ok(csv.body.split('\r\n').includes('total,all,3,3,0,0,'), csv.body);
    });

    it('compares with the previous period: each total’s change in per cent, the earlier line', async () => {
      const plain = await page(`/stats?${WEEK}`);
      const on = linkOf(/<p class="compare" data-compare="off">[\s\S]*?<\/p>/.exec(plain)?.[0] ?? '');
      assert.equal(on.fields.compare, 'previous');
      const body = await page(on.path);
      assert.deepEqual(changeOf(body, 'clicks'), ['up', '↑up 400% from 1']);
      assert.deepEqual(changeOf(body, 'qr_scans'), ['new', 'new (none before)']);
      assert.deepEqual(changeOf(body, 'bot_hits'), ['same', '= no change']);
      assert.match(body, /data-compare="on">Compared with the previous period, 18 Mar 2026 – 24 Mar 2026\./);
      assert.match(body, /data-previous="1"/);
      assert.match(body, /<path class="previous" d="M0 /);
      assert.match(body, /Clicks, previous period \(dashed line\)/);
      assert.match(body, /<th scope="col">Clicks, previous period<\/th>/);
      const off = linkOf(/data-compare="on">[\s\S]*?<\/p>/.exec(body)?.[0] ?? '');
      assert.equal(off.fields.compare, undefined);
      // Fewer than before: down, and the figures it is against.
      const fewer = await page('/stats?from=2026-03-31&to=2026-03-31&compare=previous');
      assert.deepEqual(changeOf(fewer, 'clicks'), ['down', '↓down 100% from 3']);
    });

    it('says from when filtered figures count once the range reaches past the kept details', async () => {
      const body = await page('/stats?country=DE');
      assert.match(body, /data-retained-from="2026-03-21T00:00:00Z"/);
      assert.match(body, /These figures start on 21 Mar 2026/);
      assert.doesNotMatch(await page('/stats'), /data-retained-from/);
    });

    it('names the zone of the days: the workspace’s, or the one the address asks for', async () => {
      assert.match(
        await page('/stats'),
        /data-zone="UTC">Days and hours are in UTC time, the workspace’s zone/,
      );
      const tokyo = await page('/stats?tz=Asia/Tokyo&country=DE');
      assert.match(
        tokyo,
        /data-zone="Asia\/Tokyo">Days and hours are in Asia\/Tokyo time, as this address asks/,
      );
      const back = linkOf(/data-zone="Asia\/Tokyo">[\s\S]*?<\/p>/.exec(tokyo)?.[0] ?? '');
      assert.deepEqual(back.fields, { country: 'DE' });
      const zoned = await callApi(t.app, 'PATCH', '/workspace', { key, body: { timezone: 'Europe/Berlin' } });
      assert.equal(zoned.status, 200, JSON.stringify(zoned.body));
      const berlin = await page(`/stats?${WEEK}`);
      assert.match(
        berlin,
        /data-zone="Europe\/Berlin">Days and hours are in Europe\/Berlin time, the workspace’s zone/,
      );
      assert.match(berlin, /25 Mar 2026 – 31 Mar 2026 · by day · Europe\/Berlin/);
    });

    it('gives a link’s page the same links, without the workspace’s filters', async () => {
      const body = await page('/links/promo/stats?tag=x&group=y&device=mobile');
      assert.doesNotMatch(body, /data-drop="(tag|group)"/);
      assert.match(chipOf(body, 'device'), /Device: Mobile/);
      const france = linkOf(rowOf(body, 'by-country', 'FR'));
      assert.match(france.path, /\/links\/promo\/stats\?/);
      assert.deepEqual(france.fields, { device: 'mobile', country: 'FR' });
    });

    it('keeps the public page to plain tables: no filter links, no campaign or source tables', async () => {
      const made = await callApi(t.app, 'PATCH', '/links/promo', { key, body: { public_stats: true } });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const open = await t.app.inject({ url: '/promo+', headers: { host: 'sn.ip', accept: 'text/html' } });
      assert.equal(open.statusCode, 200);
      const body = open.body;
      assert.ok(rowOf(body, 'by-country', 'DE'));
      assert.doesNotMatch(sectionOf(body, 'by-country'), /href=/);
      assert.doesNotMatch(body, /\/w\/|country=|class="chip"|data-compare/);
      assert.doesNotMatch(body, /by-utm|by-referrer-source|spring/);
    });
  });
}
