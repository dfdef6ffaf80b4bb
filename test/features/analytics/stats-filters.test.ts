import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { PageClient } from '../../fixtures/page-client.ts';
import type { TestApp } from '../../helper.ts';
import { givenLinkOf, type LinkIds, linkIds, STORES, VisitSeeder } from './stats-seed.ts';

/**
 * Filters, compare=previous, time zones, UTM and referrer sources on the stats answers (docs/api.md
 * §19) on both stores. Today is 31 March 2026: Europe/Berlin went from +01:00 to +02:00 on the 29th.
 */

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 2, 31, 12);
const RETENTION_DAYS = 10;
const PASSWORD = 'correct horse battery';

type Row = { value: string; clicks: number };
const rows = (list: unknown) => Object.fromEntries((list as Row[]).map((row) => [row.value, row.clicks]));

for (const kind of STORES) {
  describe(`stats filters, comparison, zones, UTM and sources (${kind.name})`, { skip: kind.skip }, () => {
    let t: TestApp;
    let seed: VisitSeeder;
    let plain: LinkIds;
    let tagged: LinkIds;
    const stats = async (path: string, status = 200) => {
      const answer = await callApi(t.app, 'GET', path, { key: t.apiKey });
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      return answer.body as Record<string, unknown> & { totals: { clicks: number; bot_hits: number } };
    };
    const clicksOf = async (query: string) => (await stats(`/stats?${query}`)).totals.clicks;

    before(async () => {
      t = await kind.start({ now: () => NOW, env: { ANALYTICS_RETENTION_DAYS: String(RETENTION_DAYS) } });
      seed = new VisitSeeder(t.store);
      const group = await callApi(t.app, 'POST', '/groups', {
        key: t.apiKey,
        body: { name: 'Spring', api_id: 'spring' },
      });
      assert.equal(group.status, 201, JSON.stringify(group.body));
      const made = await callApi(t.app, 'POST', '/links', {
        key: t.apiKey,
        body: {
          url: 'https://example.com/sale?utm_source=news&utm_medium=email&utm_campaign=spring+sale',
          slug: 'utm-link',
          group: 'spring',
          tags: ['promo'],
        },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      tagged = await linkIds(t.store, 'utm-link');
      const other = await callApi(t.app, 'POST', '/links', {
        key: t.apiKey,
        body: { url: 'https://example.com/plain', slug: 'plain-link' },
      });
      assert.equal(other.status, 201, JSON.stringify(other.body));
      plain = await linkIds(t.store, 'plain-link');
      const at = NOW - 2 * DAY;
      await seed.visits(
        tagged,
        [
          {
            at,
            country: 'DE',
            device: 'mobile',
            os: 'Android',
            browser: 'Firefox',
            language: 'de',
            referrer: 'www.google.de',
          },
          { at, country: 'DE', device: 'desktop', referrer: 'google.com', source: 'qr' },
          { at, country: 'FR', device: 'mobile', referrer: 'mail.google.com' },
        ],
        { Googlebot: 2 },
      );
      await seed.visits(plain, [
        { at, country: 'DE', referrer: 't.co' },
        { at, country: 'US', referrer: 'news.example' },
        // Three days before today: 00:30 on the 29th in Berlin, still the 28th in UTC.
        { at: Date.UTC(2026, 2, 28, 23, 30), country: 'US' },
        // Well past the retention: kept only in the daily aggregates once swept.
        { at: NOW - 40 * DAY, country: 'US' },
      ]);
      await t.app.retention.sweep();
    });
    after(() => t?.close());

    it('keeps the clicks every given filter holds for, each on its own and together', async () => {
      assert.equal(await clicksOf(''), 6);
      assert.equal(await clicksOf('country=DE'), 3);
      assert.equal(await clicksOf('country=de'), 3, 'a country code in any case');
      assert.equal(await clicksOf('device=mobile'), 2);
      assert.equal(await clicksOf('os=Android'), 1);
      assert.equal(await clicksOf('browser=Firefox'), 1);
      assert.equal(await clicksOf('language=de'), 1);
      assert.equal(await clicksOf('source=qr'), 1);
      assert.equal(await clicksOf('referrer=t.co'), 1);
      assert.equal(await clicksOf('country=DE&device=mobile'), 1);
      assert.equal(await clicksOf('country=DE&device=mobile&source=qr'), 0);
      assert.equal(await clicksOf('group=spring'), 3);
      assert.equal(await clicksOf('tag=promo'), 3);
      assert.equal(await clicksOf('tag=promo&country=FR'), 1);
      assert.equal(await clicksOf('tag=nothing'), 0);
      const filtered = await stats('/stats?country=DE');
      assert.equal(filtered.totals.bot_hits, 0, 'bots carry no dimension, so a filter counts none');
      assert.deepEqual(rows(filtered.countries), { DE: 3 });
    });

    it('filters a link the same way, and refuses the workspace-only filters there', async () => {
      assert.equal((await stats(`/links/${tagged.code}/stats?device=mobile`)).totals.clicks, 2);
      assert.equal((await stats(`/links/${plain.code}/stats?utm_source=news`)).totals.clicks, 0);
      assert.equal((await stats(`/links/${tagged.code}/stats?utm_source=news`)).totals.clicks, 3);
      assertProblem(
        await callApi(t.app, 'GET', `/links/${tagged.code}/stats?tag=promo`, { key: t.apiKey }),
        400,
        '300',
      );
    });

    it('groups referrer hosts into sources; a source as filter lists its hosts', async () => {
      const all = await stats('/stats');
      assert.deepEqual(rows(all.referrer_sources), {
        Google: 2,
        Email: 1,
        X: 1,
        'news.example': 1,
        direct: 1,
      });
      const google = await stats('/stats?referrer=Google');
      assert.equal(google.totals.clicks, 2);
      assert.deepEqual(rows(google.referrers), { 'www.google.de': 1, 'google.com': 1 });
      assert.equal(await clicksOf('referrer=email'), 1, 'a source name in any case');
      assert.equal(await clicksOf('referrer=google.com'), 1, 'a host alone');
    });

    it("breaks clicks down by the clicked link's UTM values, from the aggregates and the events", async () => {
      for (const query of ['', '?interval=hour&from=2026-03-29', '?tz=Europe/Berlin', '?country=DE']) {
        const answer = await stats(`/stats${query}`);
        const expected = query === '?country=DE' ? 2 : 3;
        assert.deepEqual(rows(answer.utm_sources), { news: expected }, query);
        assert.deepEqual(rows(answer.utm_mediums), { email: expected }, query);
        assert.deepEqual(rows(answer.utm_campaigns), { 'spring sale': expected }, query);
      }
      assert.equal(await clicksOf('utm_campaign=spring%20sale&utm_medium=email'), 3);
      assert.equal(await clicksOf('utm_medium=social'), 0);
    });

    it('adds the period of equal length just before with compare=previous', async () => {
      const answer = await stats('/stats?from=2026-03-29&to=2026-03-31&compare=previous');
      assert.equal(answer.totals.clicks, 5);
      const previous = answer.previous as typeof answer;
      assert.equal(previous.from, '2026-03-26T00:00:00Z');
      assert.equal(previous.to, '2026-03-29T00:00:00Z');
      assert.equal(previous.totals.clicks, 1, "the 28th's click");
      assert.equal((previous.series as unknown[]).length, 3);
      assert.equal(previous.previous, undefined);
    });

    it('counts days of a zone with DST as one day each, 23 hours on the 29th in Berlin', async () => {
      const answer = await stats('/stats?from=2026-03-28&to=2026-03-30&tz=Europe/Berlin');
      assert.equal(answer.timezone, 'Europe/Berlin');
      assert.equal(answer.from, '2026-03-28T00:00:00+01:00');
      assert.equal(answer.to, '2026-03-31T00:00:00+02:00');
      assert.deepEqual(answer.series, [
        { t: '2026-03-28T00:00:00+01:00', clicks: 0, unique_visitors: 0 },
        { t: '2026-03-29T00:00:00+01:00', clicks: 6, unique_visitors: 6 },
        { t: '2026-03-30T00:00:00+02:00', clicks: 0, unique_visitors: 0 },
      ]);
      const utc = await stats('/stats?from=2026-03-28&to=2026-03-30');
      assert.deepEqual(
        (utc.series as Row[]).map((point) => point.clicks),
        [1, 5, 0],
      );
      const hours = await stats('/stats?from=2026-03-29&to=2026-03-29&interval=hour&tz=Europe/Berlin');
      assert.equal((hours.series as unknown[]).length, 23);
      assert.equal((hours.series as Array<{ t: string }>)[3]?.t, '2026-03-29T04:00:00+02:00');
    });

    it("takes the workspace's zone when tz is not given", async () => {
      const changed = await callApi(t.app, 'PATCH', '/workspace', {
        key: t.apiKey,
        body: { timezone: 'Europe/Berlin' },
      });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      try {
        const answer = await stats('/stats?from=2026-03-29&to=2026-03-29');
        assert.equal(answer.timezone, 'Europe/Berlin');
        assert.equal(answer.totals.clicks, 6);
        assert.equal((await stats('/stats?from=2026-03-29&to=2026-03-29&tz=UTC')).totals.clicks, 5);
      } finally {
        await callApi(t.app, 'PATCH', '/workspace', { key: t.apiKey, body: { timezone: 'UTC' } });
      }
    });

    it('says which part a raw read covers; an unfiltered zoned range past the retention is UTC days', async () => {
      const filtered = await stats('/stats?from=2026-02-01&country=US');
      assert.equal(filtered.retained_from, '2026-03-21T00:00:00Z');
      assert.equal(filtered.totals.clicks, 2, 'the click of 40 days ago is gone from the events');
      const zoned = await stats('/stats?from=2026-02-01&tz=Europe/Berlin');
      assert.equal(zoned.timezone, 'UTC');
      assert.equal(zoned.retained_from, undefined);
      assert.equal(zoned.totals.clicks, 7);
      assert.equal((await stats('/stats?from=2026-02-01')).retained_from, undefined);
    });

    it('refuses bad filter values, an unknown zone and compare with 300; an unknown group 312, domain 317', async () => {
      for (const query of [
        'country=DEU',
        'device=phone',
        'source=email',
        'language=en-GB',
        'referrer=not%20a%20host',
        'tz=Mars/Olympus',
        'tz=europe/berlin',
        'compare=next',
        `utm_source=${'x'.repeat(201)}`,
        'tag=',
      ]) {
        assertProblem(await callApi(t.app, 'GET', `/stats?${query}`, { key: t.apiKey }), 400, '300');
      }
      assertProblem(await callApi(t.app, 'GET', '/stats?group=nope', { key: t.apiKey }), 422, '312');
      assertProblem(
        await callApi(t.app, 'GET', '/stats?domain=elsewhere.example', { key: t.apiKey }),
        400,
        '317',
      );
    });

    it('lets the pages and their CSV follow the filters, zone and comparison', async () => {
      await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
      const client = new PageClient(t.app);
      assert.equal((await client.signIn('ada@example.com', PASSWORD)).statusCode, 303);
      const hers = await linkIds(t.store, (await givenLinkOf(t.store, 'ada@example.com', 'ada-link')).code);
      await seed.visits(hers, [
        { at: NOW - DAY, country: 'DE' },
        { at: NOW - DAY, country: 'FR' },
      ]);
      const csv = await client.get(client.at('/stats.csv?country=DE&tz=Europe/Berlin&compare=previous'));
      assert.equal(csv.statusCode, 200);
      const lines = csv.body.split('\r\n');
      assert.ok(lines.includes('total,all,1,1,0,0,'), csv.body);
      assert.ok(lines.includes('country,DE,1,,,,'));
      assert.ok(!lines.some((line) => line.startsWith('country,FR')));
      assert.ok(lines.includes('series,2026-03-30T00:00:00+02:00,1,1,0,0,'), 'days of the zone');
      const linkCsv = await client.get(client.at('/links/ada-link/stats.csv?country=FR'));
      assert.ok(linkCsv.body.split('\r\n').includes('total,all,1,1,0,0,'));
      assert.equal((await client.get(client.at('/stats.csv?country=Germany'))).statusCode, 400);
      assert.equal((await client.get(client.at('/stats?device=phone'))).statusCode, 400);
      assert.equal((await client.get(client.at('/stats?device=mobile'))).statusCode, 200);
    });
  });
}
