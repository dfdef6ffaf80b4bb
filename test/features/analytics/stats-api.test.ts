import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, callApi, keyWithScopes } from '../../fixtures/api-client.ts';
import { send, type TestApp } from '../../helper.ts';
import { ANSWER_KEYS, type LinkIds, linkIds, STORES, VisitSeeder } from './stats-seed.ts';

/** GET /api/v1/links/{code}/stats and GET /api/v1/stats (docs/api.md §9.4) on both stores. */

const HOUR = 3_600_000;
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 24, 15, 30);
const TODAY = Date.UTC(2026, 10, 24);
const RETENTION_DAYS = 10;

type Row = { value: string; clicks: number };
type Point = { t: string; clicks: number; unique_visitors: number };

const rows = (list: unknown) => Object.fromEntries((list as Row[]).map((row) => [row.value, row.clicks]));

for (const kind of STORES) {
  describe(`stats on /api/v1 (${kind.name})`, { skip: kind.skip }, () => {
    let t: TestApp;
    let seed: VisitSeeder;
    let otherKey: string;
    let n = 0;

    async function newLink(key = t.apiKey): Promise<LinkIds> {
      const slug = `stats-${++n}`;
      const answer = await callApi(t.app, 'POST', '/links', {
        key,
        body: { url: `https://example.com/${slug}`, slug },
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return linkIds(t.store, slug);
    }
    const stats = (path: string, key = t.apiKey) => callApi(t.app, 'GET', path, { key });

    before(async () => {
      t = await kind.start({ now: () => NOW, env: { ANALYTICS_RETENTION_DAYS: String(RETENTION_DAYS) } });
      seed = new VisitSeeder(t.store);
      otherKey = (await t.ops.createAccount('other@example.com', 'tester')).apiKey;
    });
    after(() => t?.close());

    it('answers the last 30 UTC days by day by default, today last, every key of the answer there', async () => {
      const link = await newLink();
      await seed.visits(link, [{ at: NOW - HOUR }, { at: NOW - 3 * DAY }, { at: NOW - 3 * DAY + 1 }]);
      const answer = await stats(`/links/${link.code}/stats`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.match(String(answer.headers['content-type']), /^application\/json/);
      assert.ok(answer.headers['ratelimit-remaining']);
      assert.deepEqual(Object.keys(answer.body).sort(), ANSWER_KEYS.toSorted());
      assert.equal(answer.body.interval, 'day');
      assert.equal(answer.body.from, '2026-10-26T00:00:00Z');
      assert.equal(answer.body.to, '2026-11-25T00:00:00Z');
      const series = answer.body.series as Point[];
      assert.equal(series.length, 30);
      assert.deepEqual(series.at(-1), { t: '2026-11-24T00:00:00Z', clicks: 1, unique_visitors: 1 });
      assert.deepEqual(series.at(-4), { t: '2026-11-21T00:00:00Z', clicks: 2, unique_visitors: 2 });
      assert.equal(
        series.reduce((sum, point) => sum + point.clicks, 0),
        3,
      );
      assert.deepEqual(answer.body.totals, { clicks: 3, unique_visitors: 3, bot_hits: 0, qr_scans: 0 });
    });

    it('answers totals and every breakdown; unique visitors are summed per day', async () => {
      const link = await newLink();
      const ana = VisitSeeder.visitor('ana');
      const bo = VisitSeeder.visitor('bo');
      await seed.visits(
        link,
        [
          {
            at: NOW - 2 * DAY,
            visitor: ana,
            referrer: 'news.example',
            country: 'BR',
            device: 'mobile',
            os: 'Android',
            browser: 'Firefox',
            language: 'pt',
            source: 'qr',
          },
          { at: NOW - 2 * DAY + 60_000, visitor: ana, referrer: 'news.example', country: 'BR' },
          { at: NOW - DAY, visitor: ana, country: 'BR' },
          { at: NOW - DAY, visitor: bo, device: 'tablet', os: 'iOS', browser: 'Safari', language: 'fr' },
        ],
        { Googlebot: 2, prefetch: 1 },
      );
      const answer = await stats(`/links/${link.code}/stats?from=2026-11-20&to=2026-11-24`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      // ana on two days and bo on one: three daily visitors, by design (a visitor id lives one day).
      assert.deepEqual(answer.body.totals, { clicks: 4, unique_visitors: 3, bot_hits: 3, qr_scans: 1 });
      assert.equal((answer.body.series as Point[]).length, 5);
      assert.deepEqual(rows(answer.body.referrers), { 'news.example': 2, direct: 2 });
      assert.deepEqual(rows(answer.body.countries), { BR: 3, ZZ: 1 });
      assert.deepEqual(rows(answer.body.devices), { desktop: 2, mobile: 1, tablet: 1 });
      assert.deepEqual(rows(answer.body.os), { Windows: 2, Android: 1, iOS: 1 });
      assert.deepEqual(rows(answer.body.browsers), { Chrome: 2, Firefox: 1, Safari: 1 });
      assert.deepEqual(rows(answer.body.languages), { en: 2, pt: 1, fr: 1 });
      assert.deepEqual(rows(answer.body.sources), { link: 3, qr: 1 });
      assert.deepEqual(rows(answer.body.bots), { Googlebot: 2, prefetch: 1 });
      assert.deepEqual(
        (answer.body.countries as Row[]).map((row) => row.value),
        ['BR', 'ZZ'],
        'sorted by clicks',
      );
    });

    it('answers hourly buckets within the retention', async () => {
      const link = await newLink();
      const same = VisitSeeder.visitor('same');
      await seed.visits(link, [
        { at: TODAY + 9 * HOUR + 5 * 60_000, visitor: same },
        { at: TODAY + 9 * HOUR + 50 * 60_000, visitor: same },
        { at: TODAY + 11 * HOUR, visitor: same, referrer: 'mail.example' },
        { at: TODAY - 2 * HOUR },
      ]);
      const answer = await stats(
        `/links/${link.code}/stats?interval=hour&from=2026-11-24T08:30:00Z&to=2026-11-24T12:00:00%2B00:00`,
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.interval, 'hour');
      assert.equal(answer.body.from, '2026-11-24T08:00:00Z');
      assert.equal(answer.body.to, '2026-11-24T12:00:00Z');
      assert.deepEqual(answer.body.series, [
        { t: '2026-11-24T08:00:00Z', clicks: 0, unique_visitors: 0 },
        { t: '2026-11-24T09:00:00Z', clicks: 2, unique_visitors: 1 },
        { t: '2026-11-24T10:00:00Z', clicks: 0, unique_visitors: 0 },
        // A visitor counts once a day, in the hour of its first click (docs/adr/041).
        { t: '2026-11-24T11:00:00Z', clicks: 1, unique_visitors: 0 },
      ]);
      assert.equal((answer.body.totals as { clicks: number }).clicks, 3);
      assert.equal((answer.body.totals as { unique_visitors: number }).unique_visitors, 1);
      assert.deepEqual(rows(answer.body.referrers), { direct: 2, 'mail.example': 1 });
      const whole = await stats(`/links/${link.code}/stats?interval=hour&from=2026-11-23&to=2026-11-24`);
      assert.equal((whole.body.series as Point[]).length, 48, 'a day as `to` includes its 24 hours');
    });

    it('lists the top 50 of a breakdown and sums the rest as other', async () => {
      const link = await newLink();
      const visits = [];
      for (let i = 0; i < 60; i++) {
        const clicks = i < 50 ? 3 : 1;
        for (let c = 0; c < clicks; c++) {
          visits.push({ at: NOW - DAY, referrer: `site${String(i).padStart(2, '0')}.example` });
        }
      }
      await seed.visits(link, visits);
      const answer = await stats(`/links/${link.code}/stats`);
      assert.equal(answer.status, 200);
      const referrers = answer.body.referrers as Row[];
      assert.equal(referrers.length, 51);
      assert.deepEqual(referrers[0], { value: 'site00.example', clicks: 3 });
      assert.deepEqual(referrers[49], { value: 'site49.example', clicks: 3 });
      assert.deepEqual(referrers[50], { value: 'other', clicks: 10 });
      assert.equal((answer.body.totals as { clicks: number }).clicks, 160);
    });

    it("sums the account's links, deleted ones included, and nothing of other accounts", async () => {
      const before = await stats('/stats?from=2026-11-01');
      assert.equal(before.status, 200, JSON.stringify(before.body));
      const totalsBefore = before.body.totals as { clicks: number; unique_visitors: number };
      const [a, b, gone] = [await newLink(), await newLink(), await newLink()];
      const theirs = await newLink(otherKey);
      const shared = VisitSeeder.visitor('shared');
      await seed.visits(a, [{ at: NOW - DAY, visitor: shared, country: 'DE' }, { at: NOW - DAY }]);
      await seed.visits(b, [{ at: NOW - DAY, visitor: shared, country: 'DE' }]);
      await seed.visits(gone, [{ at: NOW - 2 * DAY, country: 'JP' }]);
      await seed.visits(theirs, [
        { at: NOW - DAY, country: 'US' },
        { at: NOW - DAY, country: 'US' },
      ]);
      assert.equal((await callApi(t.app, 'DELETE', `/links/${gone.code}`, { key: t.apiKey })).status, 204);

      const answer = await stats('/stats?from=2026-11-01');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const totals = answer.body.totals as { clicks: number; unique_visitors: number };
      assert.equal(totals.clicks - totalsBefore.clicks, 4);
      // The shared visitor is one visitor of the account that day, though it clicked two links.
      assert.equal(totals.unique_visitors - totalsBefore.unique_visitors, 2 + 1);
      const countries = rows(answer.body.countries);
      assert.equal(countries.DE, 2);
      assert.equal(countries.JP, 1);
      assert.equal(countries.US, undefined);
      const theirAnswer = await stats('/stats?from=2026-11-01', otherKey);
      assert.deepEqual(theirAnswer.body.totals, { clicks: 2, unique_visitors: 2, bot_hits: 0, qr_scans: 0 });
      assert.deepEqual(rows(theirAnswer.body.countries), { US: 2 });
    });

    it("shows the link's unique visitors, summed per day, on the resource, the list and the CSV", async () => {
      const link = await newLink();
      const ana = VisitSeeder.visitor('ana');
      await seed.visits(link, [
        { at: NOW - DAY, visitor: ana },
        { at: NOW - DAY, visitor: ana },
      ]);
      await seed.visits(link, [{ at: NOW, visitor: ana }, { at: NOW }]);
      const resource = (await callApi(t.app, 'GET', `/links/${link.code}`, { key: t.apiKey })).body;
      assert.equal(resource.clicks, 4);
      assert.equal(resource.unique_visitors, 3);
      const listed = (await callApi(t.app, 'GET', '/links?limit=100', { key: t.apiKey })).body.items as Array<
        Record<string, unknown>
      >;
      assert.equal(listed.find((item) => item.short_code === link.code)?.unique_visitors, 3);
      const csv = await t.app.inject({
        method: 'GET',
        url: '/api/v1/links.csv',
        headers: { 'x-api-key': t.apiKey },
      });
      const row = csv.body.split('\r\n').find((line) => line.startsWith(`${link.code},`));
      assert.match(String(row), /,4,3,sn\.ip,0,0,$/);
    });

    it('answers 314 for a code the account has no live link with', async () => {
      const mine = await newLink();
      const theirs = await newLink(otherKey);
      assertProblem(await stats('/links/nope-nope/stats'), 404, '314');
      assertProblem(await stats(`/links/${theirs.code}/stats`), 404, '314');
      assert.equal((await stats(`/links/${theirs.code}/stats`, otherKey)).status, 200);
      assert.equal((await callApi(t.app, 'DELETE', `/links/${mine.code}`, { key: t.apiKey })).status, 204);
      assertProblem(await stats(`/links/${mine.code}/stats`), 404, '314');
      assertProblem(await stats(`/links/${'x'.repeat(65)}/stats`), 400, '300');
    });

    it('needs the stats:read scope: 403 315, and 401 without a key', async () => {
      const link = await newLink();
      const reader = await keyWithScopes(t.store, t.email, ['links:read', 'links:write'], 'no-stats');
      assertProblem(await stats(`/links/${link.code}/stats`, reader), 403, '315');
      assertProblem(await stats('/stats', reader), 403, '315');
      const statsOnly = await keyWithScopes(t.store, t.email, ['stats:read'], 'stats-only');
      assert.equal((await stats(`/links/${link.code}/stats`, statsOnly)).status, 200);
      assert.equal((await stats('/stats', statsOnly)).status, 200);
      assertProblem(await callApi(t.app, 'GET', '/stats'), 401, '301');
      assertProblem(await stats('/stats', 'snip_not-a-key'), 401, '303');
    });

    it('refuses every range it cannot read with 300, never a 500', async () => {
      const link = await newLink();
      const long = '9'.repeat(5000);
      const queries = [
        'from=2026-11-10&to=2026-11-01',
        'from=2026-11-10T10:00:00Z&to=2026-11-10T09:00:00Z&interval=hour',
        'from=2025-01-01&to=2026-11-24',
        'from=2000-01-01',
        `interval=hour&from=${new Date(TODAY - (RETENTION_DAYS + 1) * DAY).toISOString()}`,
        'interval=hour',
        'interval=week',
        'interval=',
        'interval=hour&interval=day',
        'from=2026-11-01&from=2026-11-02',
        'to=2026-11-01&to=2026-11-02',
        'from=yesterday',
        'from=',
        'to=2023-02-29',
        'from=2026-02-30T10:00:00Z',
        'to=2026-11-24T24:00:00Z',
        'from=2026-11-24T10:00:00',
        'from=1969-12-31',
        'to=99999-01-01',
        'to=%00',
        `from=${long}`,
        `to=2026-11-01T00:00:00.${long}Z`,
        'from[]=2026-11-01',
        'from[a]=2026-11-01',
        'foo=bar',
      ];
      for (const query of queries) {
        for (const path of [`/links/${link.code}/stats`, '/stats']) {
          const answer = await stats(`${path}?${query}`);
          assert.equal(
            answer.status,
            400,
            `${path}?${query.slice(0, 60)}: ${answer.status} ${JSON.stringify(answer.body)}`,
          );
          assertProblem(answer, 400, '300');
        }
      }
      // The field is named for people (the wording is no contract, the field is).
      const answer = await stats('/stats?from=2026-11-10&to=2026-11-01');
      assert.match(String(answer.body.detail), /\bfrom\b/);
      assert.match(String((await stats('/stats?interval=week')).body.detail), /\binterval\b/);
    });

    it('takes the edges: a leap day, 366 days, hours at the retention edge, a range in the future', async () => {
      const link = await newLink();
      const ok = async (query: string) => {
        const answer = await stats(`/links/${link.code}/stats?${query}`);
        assert.equal(answer.status, 200, `${query}: ${JSON.stringify(answer.body)}`);
        return answer.body;
      };
      assert.equal(((await ok('from=2024-02-29&to=2024-02-29')).series as Point[]).length, 1);
      assert.equal(((await ok('from=2024-01-01&to=2024-12-31')).series as Point[]).length, 366);
      const edge = new Date(TODAY - RETENTION_DAYS * DAY).toISOString();
      assert.equal(
        ((await ok(`interval=hour&from=${edge}&to=${edge.slice(0, 10)}`)).series as Point[]).length,
        24,
      );
      assert.equal(((await ok('from=2030-01-01&to=2030-01-02')).series as Point[]).length, 2);
      assert.equal((await ok('from=2026-11-24T12:00:00%2B05:30&to=2026-11-24')).from, '2026-11-24T00:00:00Z');
    });

    it('counts each stats request in the hourly window and refuses other methods', async () => {
      const first = await stats('/stats');
      const second = await stats('/stats');
      assert.equal(
        Number(second.headers['ratelimit-remaining']),
        Number(first.headers['ratelimit-remaining']) - 1,
      );
      const post = await callApi(t.app, 'POST', '/stats', { key: t.apiKey, body: {} });
      assert.equal(post.status, 405);
    });

    it('is described in /openapi.json with its full answer', async () => {
      const answer = await send(t.app, { method: 'GET', url: '/openapi.json' });
      assert.equal(answer.status, 200);
      const paths = answer.body.paths as Record<string, Record<string, Record<string, unknown>>>;
      for (const path of ['/api/v1/links/{code}/stats', '/api/v1/stats']) {
        const operation = paths[path]?.get;
        assert.ok(operation, path);
        assert.deepEqual(operation.tags, ['Stats']);
        assert.match(String(operation.description), /sum of daily unique visitors/);
        assert.match(String(operation.description), /ANALYTICS_RETENTION_DAYS/);
        const responses = operation.responses as Record<
          string,
          { content?: Record<string, { schema: unknown }> }
        >;
        assert.ok(responses['200'] && responses['400'] && responses['403']);
        assert.match(JSON.stringify(responses['200'].content), /Stats/);
        const names = (operation.parameters as Array<{ name: string; in: string }>)
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => parameter.name);
        // A link's stats also name its domain (docs/api.md §12); the workspace's filter by one.
        const filters = [
          'browser',
          'compare',
          'country',
          'device',
          'language',
          'os',
          'referrer',
          'source',
          'tz',
        ];
        const utm = ['utm_campaign', 'utm_medium', 'utm_source'];
        const common = ['from', 'interval', 'to', ...filters, ...utm];
        const expected =
          path === '/api/v1/stats' ? [...common, 'domain', 'group', 'tag'] : [...common, 'domain'];
        assert.deepEqual(names.sort(), expected.sort());
      }
      assert.ok(paths['/api/v1/links/{code}/stats']?.get?.responses);
      const schemas = (answer.body.components as { schemas: Record<string, { properties: object }> }).schemas;
      const statsSchema = Object.values(schemas).find(
        (schema) => 'properties' in schema && 'series' in schema.properties && 'bots' in schema.properties,
      );
      assert.ok(statsSchema, 'the Stats schema is a component');
      // Optional members: retained_from (a raw read past the retention) and previous (compare).
      const optional = ['previous', 'retained_from'];
      assert.deepEqual(Object.keys(statsSchema.properties).sort(), [...ANSWER_KEYS, ...optional].sort());
    });
  });
}
