/**
 * The visit analytics part of the store contract (ClickStore.addClicks with visits, StatsStore):
 * run by runStoreContract on every adapter, against the ports only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type BreakdownRow,
  type ClickEvent,
  DIMENSION_VALUE_MAX,
  DIMENSIONS,
  type Dimension,
  type StatsRange,
  type StoredStats,
} from '../../../src/core/analytics/model.ts';
import type { Link } from '../../../src/core/entities.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { clickEvent } from '../../fixtures/click-event.ts';
import { givenAccount, newLink, planInput } from './store-contract.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** 2024-03-01T00:00Z and the days after it. */
const D1 = Date.UTC(2024, 2, 1);
const D2 = D1 + DAY;
const D3 = D2 + DAY;
const D4 = D3 + DAY;
const [V1, V2, V3, V4] = ['00000000000000a1', 'ffffffffffffffff', '7fffffffffffffff', '0123456789abcdef'];

const days = (from: number, to: number): StatsRange => ({ from, to, interval: 'day' });
const hours = (from: number, to: number): StatsRange => ({ from, to, interval: 'hour' });
const rows = (...pairs: Array<[string, number]>): BreakdownRow[] =>
  pairs.map(([value, clicks]) => ({ value, clicks }));

function emptyStats(botHits = 0, bot: BreakdownRow[] = []): StoredStats {
  const breakdowns = Object.fromEntries(DIMENSIONS.map((dim) => [dim, []])) as unknown as Record<
    Dimension,
    BreakdownRow[]
  >;
  breakdowns.bot = bot;
  return { totals: { clicks: 0, uniqueVisitors: 0, botHits, qrScans: 0 }, series: [], breakdowns, urls: [] };
}

export function runStatsContract(store: () => Store): void {
  async function givenLinks(email: string, count: number): Promise<Link[]> {
    const plan = await store().upsertPlan(planInput());
    const account = await givenAccount(store(), email, plan);
    const links: Link[] = [];
    for (let i = 0; i < count; i++) {
      const result = await store().insertLinkWithinQuota(newLink(account.id, `https://example.com/${i}`));
      assert.equal(result.kind, 'created');
      links.push(result.link);
    }
    return links;
  }

  /**
   * Link a (4 clicks over two days, 6 bot hits over three) and b on one account, c on another.
   * Visitor V1 comes back on the second day: unique again, since visitor ids live one day.
   */
  async function givenVisits(): Promise<{ a: Link; b: Link; c: Link }> {
    const [a, b] = await givenLinks('ada@example.com', 2);
    const [c] = await givenLinks('bob@example.com', 1);
    assert.ok(a && b && c);
    const german = { referrer: 'example.com', country: 'DE', language: 'de' } as const;
    await store().addClicks(
      [
        { linkId: a.id, day: '2024-03-01', clicks: 3, botHits: 2 },
        { linkId: b.id, day: '2024-03-01', clicks: 1, botHits: 0 },
        { linkId: c.id, day: '2024-03-01', clicks: 1, botHits: 0 },
        { linkId: a.id, day: '2024-03-03', clicks: 0, botHits: 4 },
      ],
      {
        events: [
          clickEvent(a, D1 + 10 * HOUR + 15 * 60_000, V1, german),
          clickEvent(a, D1 + 10 * HOUR + 40 * 60_000, V2, {
            country: 'FR',
            device: 'mobile',
            os: 'iOS',
            browser: 'Safari',
            language: 'fr',
            source: 'qr',
          }),
          clickEvent(a, D1 + 11 * HOUR + 5 * 60_000, V1, german),
          clickEvent(b, D1 + 10 * HOUR + 20 * 60_000, V3, { country: 'US', os: 'macOS', browser: 'Firefox' }),
          clickEvent(c, D1 + 10 * HOUR, V4),
        ],
        visitors: [
          { linkId: a.id, workspaceId: a.workspaceId, day: '2024-03-01', ofLink: 2, ofWorkspace: 2 },
          { linkId: b.id, workspaceId: b.workspaceId, day: '2024-03-01', ofLink: 1, ofWorkspace: 1 },
          { linkId: c.id, workspaceId: c.workspaceId, day: '2024-03-01', ofLink: 1, ofWorkspace: 1 },
        ],
        bots: [
          { linkId: a.id, day: '2024-03-01', kind: 'head', hits: 1 },
          { linkId: a.id, day: '2024-03-01', kind: 'Googlebot', hits: 1 },
          { linkId: a.id, day: '2024-03-03', kind: 'prefetch', hits: 4 },
        ],
      },
    );
    await store().addClicks([{ linkId: a.id, day: '2024-03-02', clicks: 1, botHits: 0 }], {
      events: [
        clickEvent(a, D2 + 9 * HOUR, V1, {
          referrer: 'news.example',
          country: 'DE',
          device: 'tablet',
          os: 'Android',
          source: 'qr',
        }),
      ],
      visitors: [{ linkId: a.id, workspaceId: a.workspaceId, day: '2024-03-02', ofLink: 1, ofWorkspace: 1 }],
      bots: [],
    });
    return { a, b, c };
  }

  const linkADaily: StoredStats = {
    totals: { clicks: 4, uniqueVisitors: 3, botHits: 6, qrScans: 2 },
    series: [
      { t: D1, clicks: 3, uniqueVisitors: 2 },
      { t: D2, clicks: 1, uniqueVisitors: 1 },
      { t: D3, clicks: 0, uniqueVisitors: 0 },
    ],
    breakdowns: {
      referrer: rows(['example.com', 2], ['direct', 1], ['news.example', 1]),
      country: rows(['DE', 3], ['FR', 1]),
      device: rows(['desktop', 2], ['mobile', 1], ['tablet', 1]),
      os: rows(['Windows', 2], ['Android', 1], ['iOS', 1]),
      browser: rows(['Chrome', 3], ['Safari', 1]),
      language: rows(['de', 2], ['en', 1], ['fr', 1]),
      source: rows(['link', 2], ['qr', 2]),
      variant: [],
      bot: rows(['prefetch', 4], ['Googlebot', 1], ['head', 1]),
    },
    urls: [],
  };

  describe('visit analytics', () => {
    it('reads a link back per day: totals, series with bot-only days, complete sorted breakdowns', async () => {
      const { a } = await givenVisits();
      assert.deepEqual(await store().stats({ linkId: a.id }, days(D1, D4)), linkADaily);
      const found = await store().findLinkByCode(0, a.code);
      assert.deepEqual([found?.clicks, found?.botHits, found?.uniqueVisitors], [4, 6, 3]);
      assert.deepEqual(await store().stats({ linkId: a.id }, days(D2, D3)), {
        totals: { clicks: 1, uniqueVisitors: 1, botHits: 0, qrScans: 1 },
        series: [{ t: D2, clicks: 1, uniqueVisitors: 1 }],
        breakdowns: {
          referrer: rows(['news.example', 1]),
          country: rows(['DE', 1]),
          device: rows(['tablet', 1]),
          os: rows(['Android', 1]),
          browser: rows(['Chrome', 1]),
          language: rows(['en', 1]),
          source: rows(['qr', 1]),
          variant: [],
          bot: [],
        },
        urls: [],
      });
      assert.deepEqual(await store().stats({ linkId: a.id }, days(D4, D4 + 30 * DAY)), emptyStats());
    });

    it('keeps the human daily history to days with clicks when a day had only bot hits', async () => {
      const { a } = await givenVisits();
      assert.deepEqual(await store().dailyClicksOfLink(a.id, '2024-03-01', '2024-03-31'), [
        { day: '2024-03-01', clicks: 3 },
        { day: '2024-03-02', clicks: 1 },
      ]);
    });

    it('reads a link back per hour, each visitor counted in the hour of its first sighting of the day', async () => {
      const { a } = await givenVisits();
      const answer = await store().stats({ linkId: a.id }, hours(D1, D3));
      assert.deepEqual(answer.series, [
        { t: D1 + 10 * HOUR, clicks: 2, uniqueVisitors: 2 },
        // V1 again, first seen at 10:15 (docs/adr/041).
        { t: D1 + 11 * HOUR, clicks: 1, uniqueVisitors: 0 },
        { t: D2 + 9 * HOUR, clicks: 1, uniqueVisitors: 1 },
      ]);
      // V1 on both days counts twice; bot hits are those of the whole days touched.
      assert.deepEqual(answer.totals, { clicks: 4, uniqueVisitors: 3, botHits: 2, qrScans: 2 });
      assert.deepEqual(answer.breakdowns, {
        ...linkADaily.breakdowns,
        bot: rows(['Googlebot', 1], ['head', 1]),
      });

      const oneHour = await store().stats({ linkId: a.id }, hours(D1 + 10 * HOUR, D1 + 11 * HOUR));
      assert.deepEqual(oneHour.series, [{ t: D1 + 10 * HOUR, clicks: 2, uniqueVisitors: 2 }]);
      assert.deepEqual(oneHour.totals, { clicks: 2, uniqueVisitors: 2, botHits: 2, qrScans: 1 });
      assert.deepEqual(oneHour.breakdowns.referrer, rows(['direct', 1], ['example.com', 1]));
    });

    it('sums an account over its links only, per day and per hour', async () => {
      const { a, c } = await givenVisits();
      const daily = await store().stats({ workspaceId: a.workspaceId }, days(D1, D4));
      assert.deepEqual(daily.totals, { clicks: 5, uniqueVisitors: 4, botHits: 6, qrScans: 2 });
      assert.deepEqual(daily.series, [
        { t: D1, clicks: 4, uniqueVisitors: 3 },
        { t: D2, clicks: 1, uniqueVisitors: 1 },
        { t: D3, clicks: 0, uniqueVisitors: 0 },
      ]);
      assert.deepEqual(
        daily.breakdowns.referrer,
        rows(['direct', 2], ['example.com', 2], ['news.example', 1]),
      );
      assert.deepEqual(daily.breakdowns.browser, rows(['Chrome', 3], ['Firefox', 1], ['Safari', 1]));
      assert.deepEqual(daily.breakdowns.bot, linkADaily.breakdowns.bot);

      const hourly = await store().stats({ workspaceId: a.workspaceId }, hours(D1, D3));
      assert.deepEqual(hourly.series, [
        { t: D1 + 10 * HOUR, clicks: 3, uniqueVisitors: 3 },
        { t: D1 + 11 * HOUR, clicks: 1, uniqueVisitors: 0 },
        { t: D2 + 9 * HOUR, clicks: 1, uniqueVisitors: 1 },
      ]);
      assert.deepEqual(hourly.totals, { clicks: 5, uniqueVisitors: 4, botHits: 2, qrScans: 2 });
      assert.deepEqual(hourly.breakdowns.country, rows(['DE', 3], ['FR', 1], ['US', 1]));

      const other = await store().stats({ workspaceId: c.workspaceId }, days(D1, D4));
      assert.deepEqual(other.totals, { clicks: 1, uniqueVisitors: 1, botHits: 0, qrScans: 0 });
      assert.deepEqual(other.breakdowns.country, rows(['ZZ', 1]));
    });

    it('adds only to the totals for counts without a day (TRACKING=off)', async () => {
      const [link] = await givenLinks('ada@example.com', 1);
      assert.ok(link);
      await store().addClicks([{ linkId: link.id, day: null, clicks: 5, botHits: 2 }]);
      await store().addClicks([{ linkId: link.id, day: null, clicks: 1, botHits: 0 }]);
      const found = await store().findLinkByCode(0, link.code);
      assert.deepEqual([found?.clicks, found?.botHits, found?.uniqueVisitors], [6, 2, 0]);
      assert.deepEqual(await store().dailyClicksOfLink(link.id, '1970-01-01', '2999-12-31'), []);
      assert.deepEqual(
        await store().dailyClicksOfWorkspace(link.workspaceId, '1970-01-01', '2999-12-31'),
        [],
      );
      const now = Math.floor(Date.now() / DAY) * DAY;
      assert.deepEqual(
        await store().stats({ linkId: link.id }, days(now - 30 * DAY, now + DAY)),
        emptyStats(),
      );
    });

    it('skips the events, visitors and bots of an unknown link without losing the rest', async () => {
      const [link] = await givenLinks('ada@example.com', 1);
      assert.ok(link);
      const ghost = { ...link, id: link.id + 1000 };
      await store().addClicks(
        [
          { linkId: ghost.id, day: '2024-03-01', clicks: 1, botHits: 1 },
          { linkId: link.id, day: '2024-03-01', clicks: 1, botHits: 0 },
        ],
        {
          events: [clickEvent(ghost, D1, V1), clickEvent(link, D1, V2)],
          visitors: [
            { linkId: ghost.id, workspaceId: link.workspaceId, day: '2024-03-01', ofLink: 1, ofWorkspace: 1 },
            { linkId: link.id, workspaceId: link.workspaceId, day: '2024-03-01', ofLink: 1, ofWorkspace: 1 },
          ],
          bots: [{ linkId: ghost.id, day: '2024-03-01', kind: 'head', hits: 1 }],
        },
      );
      const account = await store().stats({ workspaceId: link.workspaceId }, days(D1, D2));
      assert.deepEqual(account.totals, { clicks: 1, uniqueVisitors: 1, botHits: 0, qrScans: 0 });
      assert.deepEqual(account.breakdowns.referrer, rows(['direct', 1]));
      assert.deepEqual(account.breakdowns.bot, []);
      assert.deepEqual(await store().stats({ linkId: ghost.id }, days(D1, D2)), emptyStats());
      assert.deepEqual(await store().stats({ linkId: ghost.id }, hours(D1, D2)), emptyStats());
    });

    it('records events of links named only by events and bot kinds', async () => {
      const [link] = await givenLinks('ada@example.com', 1);
      assert.ok(link);
      await store().addClicks([], {
        events: [clickEvent(link, D1, V1)],
        visitors: [],
        bots: [{ linkId: link.id, day: '2024-03-01', kind: 'head', hits: 2 }],
      });
      const answer = await store().stats({ linkId: link.id }, days(D1, D2));
      assert.deepEqual(answer.breakdowns.referrer, rows(['direct', 1]));
      assert.deepEqual(answer.breakdowns.bot, rows(['head', 2]));
    });

    it('orders each breakdown by clicks, then by value, and keeps every row', async () => {
      const [link] = await givenLinks('ada@example.com', 1);
      assert.ok(link);
      const referrers = [
        'b.example',
        'a.example',
        'c.example',
        'B.example',
        'a.example',
        'c.example',
        'c.example',
      ];
      const hosts = Array.from({ length: 60 }, (_, i) => `host-${String(i).padStart(2, '0')}.example`);
      const events = [...referrers, ...hosts].map((referrer, i) =>
        clickEvent(link, D1 + i * 1000, V1, { referrer }),
      );
      await store().addClicks([{ linkId: link.id, day: '2024-03-01', clicks: events.length, botHits: 0 }], {
        events,
        visitors: [],
        bots: [],
      });
      const answer = await store().stats({ linkId: link.id }, days(D1, D2));
      assert.deepEqual(
        answer.breakdowns.referrer,
        rows(
          ['c.example', 3],
          ['a.example', 2],
          ['B.example', 1],
          ['b.example', 1],
          ...hosts.map((h) => [h, 1] as [string, number]),
        ),
      );
      assert.deepEqual(
        (await store().stats({ linkId: link.id }, hours(D1, D2))).breakdowns.referrer,
        answer.breakdowns.referrer,
      );
    });

    it('purges raw events before a time: daily answers stay, hourly answers of those hours go', async () => {
      const { a } = await givenVisits();
      const dailyBefore = await store().stats({ workspaceId: a.workspaceId }, days(D1, D4));
      assert.equal(await store().purgeEvents(D2), 5);
      assert.equal(await store().purgeEvents(D2), 0);
      assert.deepEqual(await store().stats({ linkId: a.id }, days(D1, D4)), linkADaily);
      assert.deepEqual(await store().stats({ workspaceId: a.workspaceId }, days(D1, D4)), dailyBefore);
      assert.deepEqual(
        await store().stats({ linkId: a.id }, hours(D1, D2)),
        emptyStats(2, rows(['Googlebot', 1], ['head', 1])),
      );
      const kept = await store().stats({ linkId: a.id }, hours(D1, D3));
      assert.deepEqual(kept.series, [{ t: D2 + 9 * HOUR, clicks: 1, uniqueVisitors: 1 }]);
      assert.equal(await store().purgeEvents(D2 + 9 * HOUR + 1), 1);
    });

    it('never purges an event within the retention, even one written after older ones', async () => {
      const [link] = await givenLinks('ada@example.com', 1);
      assert.ok(link);
      const day = (at: number) => [
        { linkId: link.id, day: new Date(at).toISOString().slice(0, 10), clicks: 1, botHits: 0 },
      ];
      // A newer flush lands first, then an older one written again after a failure.
      await store().addClicks(day(D3), { events: [clickEvent(link, D3, V1)], visitors: [], bots: [] });
      await store().addClicks(day(D1), { events: [clickEvent(link, D1, V1)], visitors: [], bots: [] });
      assert.equal(await store().purgeEvents(D2), 1);
      assert.equal((await store().stats({ linkId: link.id }, hours(D3, D4))).totals.clicks, 1);
      // Once the newer event is old as well, both go.
      await store().purgeEvents(D4);
      assert.equal((await store().stats({ linkId: link.id }, hours(D1, D4))).totals.clicks, 0);
    });

    it('answers for a deleted link', async () => {
      const { a } = await givenVisits();
      assert.equal(await store().deleteLink(a.workspaceId, 0, a.code), true);
      assert.deepEqual(await store().stats({ linkId: a.id }, days(D1, D4)), linkADaily);
      assert.equal((await store().stats({ linkId: a.id }, hours(D1, D3))).totals.clicks, 4);
    });

    it('writes a batch of 10,000 identical clicks as one row per value', async () => {
      const [link] = await givenLinks('ada@example.com', 1);
      assert.ok(link);
      const at = D1 + 5 * HOUR;
      await store().addClicks([{ linkId: link.id, day: '2024-03-01', clicks: 10_000, botHits: 0 }], {
        events: Array.from({ length: 10_000 }, () => clickEvent(link, at, V1, { source: 'qr' })),
        visitors: [
          { linkId: link.id, workspaceId: link.workspaceId, day: '2024-03-01', ofLink: 1, ofWorkspace: 1 },
        ],
        bots: [],
      });
      const daily = await store().stats({ linkId: link.id }, days(D1, D2));
      assert.deepEqual(daily.totals, { clicks: 10_000, uniqueVisitors: 1, botHits: 0, qrScans: 10_000 });
      // Clicks of a link without an A/B test have no variant row.
      assert.deepEqual(daily.breakdowns.variant, []);
      for (const dim of DIMENSIONS.filter((d) => d !== 'bot' && d !== 'variant')) {
        assert.equal(daily.breakdowns[dim].length, 1, dim);
        assert.equal(daily.breakdowns[dim][0]?.clicks, 10_000, dim);
      }
      const hourly = await store().stats({ linkId: link.id }, hours(D1, D2));
      assert.deepEqual(hourly.series, [{ t: D1 + 5 * HOUR, clicks: 10_000, uniqueVisitors: 1 }]);
      assert.deepEqual(hourly.totals, daily.totals);
    });

    it('cuts values longer than DIMENSION_VALUE_MAX', async () => {
      const [link] = await givenLinks('ada@example.com', 1);
      assert.ok(link);
      const long = `${'a'.repeat(DIMENSION_VALUE_MAX)}.example`;
      await store().addClicks([{ linkId: link.id, day: '2024-03-01', clicks: 1, botHits: 1 }], {
        events: [clickEvent(link, D1, V1, { referrer: long })],
        visitors: [],
        bots: [{ linkId: link.id, day: '2024-03-01', kind: long, hits: 1 }],
      });
      const answer = await store().stats({ linkId: link.id }, days(D1, D2));
      assert.deepEqual(answer.breakdowns.referrer, rows([long.slice(0, DIMENSION_VALUE_MAX), 1]));
      assert.deepEqual(answer.breakdowns.bot, rows([long.slice(0, DIMENSION_VALUE_MAX), 1]));
      const hourly = await store().stats({ linkId: link.id }, hours(D1, D2));
      assert.deepEqual(hourly.breakdowns.referrer, answer.breakdowns.referrer);
    });

    it('refuses a malformed visit batch whole, writing nothing', async () => {
      const [link] = await givenLinks('ada@example.com', 1);
      assert.ok(link);
      const counts = [{ linkId: link.id, day: '2024-03-01', clicks: 1, botHits: 0 }];
      const good = clickEvent(link, D1, V1);
      const bad: Array<Partial<ClickEvent>> = [
        { visitor: 'not-a-visitor-id' },
        { visitor: V1.toUpperCase() },
        { at: -1 },
        { at: 1.5 },
        { device: 'phone' as ClickEvent['device'] },
        { source: 'mail' as ClickEvent['source'] },
        { referrer: null as unknown as string },
      ];
      for (const fields of bad) {
        await assert.rejects(
          store().addClicks(counts, { events: [good, { ...good, ...fields }], visitors: [], bots: [] }),
          RangeError,
          JSON.stringify(fields),
        );
      }
      await assert.rejects(
        store().addClicks(counts, {
          events: [],
          visitors: [
            { linkId: link.id, workspaceId: link.workspaceId, day: '2024-02-30', ofLink: 1, ofWorkspace: 1 },
          ],
          bots: [],
        }),
        RangeError,
      );
      await assert.rejects(
        store().addClicks(counts, {
          events: [],
          visitors: [],
          bots: [{ linkId: link.id, day: '2024-03-01', kind: 'head', hits: -1 }],
        }),
        RangeError,
      );
      assert.equal((await store().findLinkByCode(0, link.code))?.clicks, 0);
      assert.deepEqual(await store().stats({ linkId: link.id }, days(D1, D2)), emptyStats());
    });

    it('ranks the live links of one account by their clicks over the days, ties by the newest', async () => {
      const plan = await store().upsertPlan(planInput());
      const account = await givenAccount(store(), 'ada@example.com', plan);
      const insert = async (n: number, title = '') => {
        const result = await store().insertLinkWithinQuota(
          newLink(account.id, `https://example.com/top/${n}`, { title }),
        );
        assert.equal(result.kind, 'created');
        return result.link;
      };
      const [a, b, c, gone] = [
        await insert(1, 'Launch post'),
        await insert(2),
        await insert(3),
        await insert(4),
      ];
      const [theirs] = await givenLinks('bob@example.com', 1);
      assert.ok(theirs);
      await store().addClicks([
        { linkId: a.id, day: '2024-03-01', clicks: 3, botHits: 0 },
        { linkId: a.id, day: '2024-03-03', clicks: 2, botHits: 0 },
        { linkId: b.id, day: '2024-03-02', clicks: 5, botHits: 9 },
        { linkId: c.id, day: '2024-03-02', clicks: 0, botHits: 7 },
        { linkId: c.id, day: '2024-03-04', clicks: 1, botHits: 0 },
        { linkId: gone.id, day: '2024-03-02', clicks: 50, botHits: 0 },
        { linkId: theirs.id, day: '2024-03-02', clicks: 40, botHits: 0 },
      ]);
      assert.equal(await store().deleteLink(account.id, 0, gone.code), true);
      const entry = (link: Link, clicks: number) => ({
        linkId: link.id,
        domainId: 0,
        code: link.code,
        title: link.title,
        clicks,
      });

      assert.deepEqual(await store().topLinksOfWorkspace(account.id, '2024-03-01', '2024-03-03', 10), [
        entry(b, 5),
        entry(a, 5),
      ]);
      assert.deepEqual(await store().topLinksOfWorkspace(account.id, '2024-03-01', '2024-03-04', 2), [
        entry(b, 5),
        entry(a, 5),
      ]);
      assert.deepEqual(await store().topLinksOfWorkspace(account.id, '2024-03-02', '2024-03-04', 10), [
        entry(b, 5),
        entry(a, 2),
        entry(c, 1),
      ]);
      assert.deepEqual(await store().topLinksOfWorkspace(account.id, '2024-03-05', '2024-03-09', 10), []);
      assert.deepEqual(
        await store().topLinksOfWorkspace(theirs.workspaceId, '2024-01-01', '2024-12-31', 10),
        [entry(theirs, 40)],
      );
      await assert.rejects(
        store().topLinksOfWorkspace(account.id, '2024-03-01', '2024-03-04', 0),
        RangeError,
      );
      await assert.rejects(store().topLinksOfWorkspace(account.id, 'March', '2024-03-04', 5), RangeError);
    });

    it('refuses a range that is not whole hours or days', async () => {
      for (const range of [days(D1 + HOUR, D2), days(D1, D2 - 1), hours(D1 + 1, D2), days(D2, D1)]) {
        await assert.rejects(store().stats({ linkId: 1 }, range), RangeError, JSON.stringify(range));
      }
      await assert.rejects(
        store().stats({ linkId: 1 }, { from: D1, to: D2, interval: 'week' as 'day' }),
        RangeError,
      );
    });
  });
}
