/**
 * Hourly answers read the hourly rollup the flush writes (docs/adr/041) and say what the raw
 * events say, on both stores: the rollup written flush by flush, the one migration 022 backfills
 * from the events, the rollup's retention, and its end with a deleted workspace.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { loadMigrations } from '../../../src/adapters/sql/migrations.ts';
import type { BotKindCount, ClickEvent, StatsRange } from '../../../src/core/analytics/model.ts';
import type { Link } from '../../../src/core/entities.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { clickEvent } from '../../fixtures/click-event.ts';
import { expectedHourly, flushes, type Scope } from './hourly-expected.ts';
import { givenAccount, newLink, planInput } from './store-contract.ts';
import { onBothStores, type StoreHarness } from './store-harness.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const D1 = Date.UTC(2024, 2, 1);
const D2 = D1 + DAY;
const D3 = D2 + DAY;
const hours = (from: number, to: number): StatsRange => ({ from, to, interval: 'hour' });
const VISITORS = [
  '00000000000000a1',
  'ffffffffffffffff',
  '7fffffffffffffff',
  '0123456789abcdef',
  '00000000000000b2',
];
const ROLLUP = [
  'link_hourly_clicks',
  'link_hourly_stats',
  'workspace_hourly_clicks',
  'workspace_hourly_stats',
];

interface Given {
  a: Link;
  b: Link;
  c: Link;
  events: ClickEvent[];
  bots: BotKindCount[];
}

async function givenLink(store: Store, workspaceId: number, url: string): Promise<Link> {
  const created = await store.insertLinkWithinQuota(newLink(workspaceId, url));
  assert.equal(created.kind, 'created');
  return created.link;
}

/**
 * Links a and b of one workspace and c of another, clicked from D1 22:00 to D3 01:00 UTC in
 * flushes of 7: visitors return within the hour, hours later, on the next day and on the other
 * link; clicks on both sides of each midnight, to the millisecond.
 */
async function givenClicks(store: Store): Promise<Given> {
  const plan = await store.upsertPlan(planInput());
  const ada = await givenAccount(store, 'ada@example.com', plan);
  const bob = await givenAccount(store, 'bob@example.com', plan);
  const [a, b, c] = [
    await givenLink(store, ada.id, 'https://example.com/a'),
    await givenLink(store, ada.id, 'https://example.com/b'),
    await givenLink(store, bob.id, 'https://example.com/c'),
  ];
  const links = [a, a, b, c, a, b];
  const events: ClickEvent[] = [];
  for (let i = 0; i < 150; i++) {
    const at = D1 + 22 * HOUR + Math.floor((i * 27 * HOUR) / 150) + ((i * 7919) % 600_000);
    events.push(
      clickEvent(links[i % links.length] as Link, at, VISITORS[(i * 3) % VISITORS.length] as string, {
        referrer: ['direct', 'news.example', 'example.com'][i % 3] as string,
        country: ['DE', 'FR', 'US', 'ZZ'][(i >> 1) % 4] as string,
        device: i % 5 === 0 ? 'mobile' : 'desktop',
        browser: ['Chrome', 'Firefox', 'Safari'][(i >> 2) % 3] as string,
        source: i % 4 === 0 ? 'qr' : 'link',
      }),
    );
  }
  for (const at of [D2 - 1, D2, D2 + HOUR - 1, D3 - 1, D3]) {
    events.push(clickEvent(a, at, VISITORS[0] as string), clickEvent(b, at, VISITORS[4] as string));
  }
  for (const { counts, visits } of flushes(events, 7)) await store.addClicks(counts, visits);
  const bots = [{ linkId: a.id, day: '2024-03-02', kind: 'Googlebot', hits: 3 }];
  await store.addClicks([{ linkId: a.id, day: '2024-03-02', clicks: 0, botHits: 3 }], {
    events: [],
    visitors: [],
    bots,
  });
  return { a, b, c, events, bots };
}

const urlsOf = (given: Given) => new Map([given.a, given.b, given.c].map((link) => [link.id, link.longUrl]));

/** Whole days, day edges, single hours, an hour without clicks, an empty range. */
const RANGES: Array<[number, number]> = [
  [D1, D3 + DAY],
  [D1 + 23 * HOUR, D2 + HOUR],
  [D2 - HOUR, D2],
  [D2, D2 + HOUR],
  [D2, D3],
  [D2 + 5 * HOUR, D2 + 17 * HOUR],
  [D3 - HOUR, D3 + HOUR],
  [D1, D1 + HOUR],
  [D2, D2],
];

async function assertAnswers(store: Store, given: Given, what: string): Promise<void> {
  const scopes: Scope[] = [{ linkId: given.a.id }, { linkId: given.b.id }, { linkId: given.c.id }];
  scopes.push({ workspaceId: given.a.workspaceId }, { workspaceId: given.c.workspaceId });
  for (const scope of scopes) {
    for (const [from, to] of RANGES) {
      assert.deepEqual(
        await store.stats(scope, hours(from, to)),
        expectedHourly(given.events, given.bots, scope, from, to, urlsOf(given)),
        `${what}: ${JSON.stringify(scope)} ${new Date(from).toISOString()} – ${new Date(to).toISOString()}`,
      );
    }
  }
}

async function rollupRows(harness: StoreHarness): Promise<number> {
  let rows = 0;
  for (const table of ROLLUP) rows += Number((await harness.sql(`SELECT COUNT(*) AS n FROM ${table}`))[0]?.n);
  return rows;
}

onBothStores('snip-hourly-', (name, open) => {
  const dialect = name === 'SQLite' ? 'sqlite' : 'postgres';

  it(`${name}: answers per hour what the events say, flush by flush and backfilled`, async () => {
    const harness = await open();
    try {
      const given = await givenClicks(harness.store);
      await assertAnswers(harness.store, given, 'written by the flush');
      // Migration 022 again over the same events: the backfill makes the same rollup.
      const migration = (await loadMigrations(dialect)).find((m) => m.name.startsWith('022-'));
      assert.ok(migration);
      for (const table of ROLLUP) await harness.sql(`DROP TABLE ${table}`);
      for (const statement of migration.sql.split(/;\s*\n/)) {
        if (statement.replace(/--.*$/gm, '').trim() !== '') await harness.sql(statement);
      }
      await assertAnswers(harness.store, given, 'backfilled');
    } finally {
      await harness.close();
    }
  });

  it(`${name}: counts a range's visitors as the daily answer over the same whole days`, async () => {
    const harness = await open();
    try {
      const { a } = await givenClicks(harness.store);
      for (const scope of [{ linkId: a.id }, { workspaceId: a.workspaceId }]) {
        const daily = await harness.store.stats(scope, { from: D1, to: D3 + DAY, interval: 'day' });
        const hourly = await harness.store.stats(scope, hours(D1, D3 + DAY));
        assert.equal(hourly.totals.uniqueVisitors, daily.totals.uniqueVisitors);
        assert.equal(hourly.totals.clicks, daily.totals.clicks);
        assert.deepEqual(hourly.breakdowns, daily.breakdowns);
      }
    } finally {
      await harness.close();
    }
  });

  it(`${name}: counts first sightings without an hour in the link's earliest hour of that day in the flush`, async () => {
    const harness = await open();
    try {
      const plan = await harness.store.upsertPlan(planInput());
      const ada = await givenAccount(harness.store, 'ada@example.com', plan);
      const link = await givenLink(harness.store, ada.id, 'https://example.com/a');
      const [v1, v2] = VISITORS as [string, string];
      await harness.store.addClicks([{ linkId: link.id, day: '2024-03-01', clicks: 2, botHits: 0 }], {
        events: [clickEvent(link, D1 + 7 * HOUR + 5, v1), clickEvent(link, D1 + 9 * HOUR, v2)],
        visitors: [{ linkId: link.id, workspaceId: ada.id, day: '2024-03-01', ofLink: 2, ofWorkspace: 2 }],
        bots: [],
      });
      const answer = await harness.store.stats({ linkId: link.id }, hours(D1, D2));
      assert.deepEqual(answer.series, [
        { t: D1 + 7 * HOUR, clicks: 1, uniqueVisitors: 2 },
        { t: D1 + 9 * HOUR, clicks: 1, uniqueVisitors: 0 },
      ]);
      const workspace = await harness.store.stats({ workspaceId: ada.id }, hours(D1, D2));
      assert.equal(workspace.series[0]?.uniqueVisitors, 2);
    } finally {
      await harness.close();
    }
  });

  it(`${name}: keeps the rollup as long as the events`, async () => {
    const harness = await open();
    try {
      const given = await givenClicks(harness.store);
      const before = await rollupRows(harness);
      await harness.store.purgeEvents(D2);
      const early = await harness.sql(
        'SELECT COUNT(*) AS n FROM link_hourly_stats WHERE hour < ?',
        D2 / HOUR,
      );
      assert.equal(Number(early[0]?.n), 0);
      const after = await rollupRows(harness);
      assert.ok(after > 0 && after < before, `${after} of ${before} rollup rows left`);
      assert.deepEqual(
        await harness.store.stats({ linkId: given.a.id }, hours(D2, D3 + DAY)),
        expectedHourly(given.events, given.bots, { linkId: given.a.id }, D2, D3 + DAY, urlsOf(given)),
      );
    } finally {
      await harness.close();
    }
  });

  it(`${name}: drops a deleted workspace's rollup and its links', keeping the others'`, async () => {
    const harness = await open();
    try {
      const { store } = harness;
      const plan = await store.upsertPlan(planInput());
      const ada = await store.createAccount('ada@example.com', plan.id, null);
      assert.equal(ada.kind, 'created');
      if (ada.kind !== 'created') return;
      const team = await store.createWorkspace('acme', 'Acme', plan.id, ada.account.user.id);
      assert.equal(team.kind, 'created');
      if (team.kind !== 'created') return;
      const gone = await givenLink(store, team.workspace.id, 'https://example.com/team');
      const kept = await givenLink(store, ada.account.workspace.id, 'https://example.com/own');
      const events = [
        clickEvent(gone, D1 + HOUR, VISITORS[0] as string),
        clickEvent(kept, D1, VISITORS[1] as string),
      ];
      for (const { counts, visits } of flushes(events, 10)) await store.addClicks(counts, visits);
      assert.equal(await store.deleteWorkspace(team.workspace.id), 'deleted');
      const left = async (table: string, column: string, id: number) =>
        Number((await harness.sql(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`, id))[0]?.n);
      for (const table of ['link_hourly_clicks', 'link_hourly_stats']) {
        assert.equal(await left(table, 'link_id', gone.id), 0, table);
        assert.ok((await left(table, 'link_id', kept.id)) > 0, table);
      }
      for (const table of ['workspace_hourly_clicks', 'workspace_hourly_stats']) {
        assert.equal(await left(table, 'workspace_id', team.workspace.id), 0, table);
        assert.ok((await left(table, 'workspace_id', ada.account.workspace.id)) > 0, table);
      }
    } finally {
      await harness.close();
    }
  });
});
