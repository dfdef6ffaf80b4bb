import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { finished } from 'node:stream/promises';
import { openPostgresStore } from '../src/adapters/postgres/store.ts';
import { STATS_SQL } from '../src/adapters/sql/stats-queries.ts';
import { openSqliteStore } from '../src/adapters/sqlite/store.ts';
import type { ClickEvent, StatsRange, StatsScope } from '../src/core/analytics/model.ts';
import { dayText } from '../src/core/days.ts';
import type { ClickCount } from '../src/core/entities.ts';
import type { Store } from '../src/core/ports/store.ts';
import { type SeedDay, seedDays } from './event-seed.ts';
import { hourlyRollupPhase } from './hourly-query.ts';
import { createScratch } from './scratch.ts';

/**
 * Stats queries over 10 million click events (BENCH_STATS_EVENTS) spread over 90 days and 1,000
 * links of 10 accounts, one hot link taking 30 % of them: the events and the aggregates the write
 * path would have made of them are bulk-loaded (SQLite: prepared multi-row INSERTs; PostgreSQL:
 * COPY), then the real write path (addClicks with 10k-event batches) is timed on top, then
 * stats() of the hot link (30 days daily, 7 days hourly) and of its account, median and p95 of
 * repeated runs, with the indexes each query used and the bytes an event takes on disk.
 */

const DAY_MS = 86_400_000;
const LINKS = 1000;
const ACCOUNTS = 10;
const DAYS = 90;
const HOT_SHARE = 0.3;
const WRITE_BATCHES = 20;
const WRITE_BATCH = 10_000;
const DAILY_RUNS = 21;
const HOURLY_RUNS = 7;
const GOAL_MS = 100;

function eventCount(): number {
  const raw = process.env.BENCH_STATS_EVENTS?.trim();
  if (!raw) return 10_000_000;
  if (!/^[1-9]\d*$/.test(raw)) throw new Error(`BENCH_STATS_EVENTS must be a whole number, got "${raw}"`);
  return Number(raw);
}

export interface QueryFigures {
  query: string;
  runs: number;
  medianMs: number;
  p95Ms: number;
  /** The longest the event loop of this process waited while the runs went on (the store's thread). */
  loopMaxMs: number;
  plan: string;
}

export interface StoreFigures {
  store: 'sqlite' | 'postgres';
  events: number;
  seedSeconds: number;
  /** Events per second through addClicks (10k-event batches with their counts and visitors). */
  writeEventsPerSecond: number;
  /** Events table and its indexes, per event. */
  bytesPerEvent: number;
  /** The per-day tables (clicks and breakdowns, both scopes), per event. */
  aggregateBytesPerEvent: number;
  queries: QueryFigures[];
}

export interface StatsQueryResults {
  figures: StoreFigures[];
  goals: Array<{ goal: string; actual: string; met: boolean }>;
  lines: string[];
  notes: string[];
}

interface Seeded {
  hot: number;
  hotAccount: number;
  links: number[];
  accountOf: number[];
}

async function seedLinks(store: Store): Promise<Seeded> {
  const plan = await store.upsertPlan({
    name: 'bench-stats',
    apiAccess: true,
    urlQuota: LINKS,
    rateLimitPerHour: 1000,
  });
  const links: number[] = [];
  const accountOf: number[] = [];
  for (let a = 0; a < ACCOUNTS; a++) {
    const created = await store.createAccount(`stats-${a}@bench.example`, plan.id, null);
    if (created.kind !== 'created') throw new Error('bench account exists');
    const workspaceId = created.account.workspace.id;
    const perAccount = LINKS / ACCOUNTS;
    await store.insertLinksBulk(
      Array.from({ length: perAccount }, (_, i) => {
        const url = `https://example.com/stats/${a}/${i}`;
        return {
          code: `st${(a * perAccount + i).toString(36).padStart(5, '0')}`,
          domainId: 0,
          workspaceId,
          groupId: null,
          longUrl: url,
          normalizedUrl: url,
          urlHash: createHash('sha256').update(url).digest('hex'),
          title: '',
        };
      }),
    );
    const listed = await store.listLinks(workspaceId, { limit: perAccount, counted: false });
    for (const link of listed.links.toSorted((x, y) => x.id - y.id)) {
      links.push(link.id);
      accountOf.push(workspaceId);
    }
  }
  return { hot: links[0] as number, hotAccount: accountOf[0] as number, links, accountOf };
}

function days(seeded: Seeded, events: number, lastDay: number): Generator<SeedDay> {
  return seedDays({
    events,
    days: DAYS,
    links: seeded.links,
    accountOf: seeded.accountOf,
    hotShare: HOT_SHARE,
    lastDay,
  });
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)] ?? 0;

async function timeQuery(
  store: Store,
  query: string,
  scope: StatsScope,
  range: StatsRange,
  runs: number,
  plan: string,
): Promise<QueryFigures> {
  await store.stats(scope, range);
  const times: number[] = [];
  // The longest gap between two turns of this thread's event loop while the runs go on: a read that
  // holds the thread shows as its whole length, one on another thread not at all.
  let last = performance.now();
  let loopMaxMs = 0;
  const ticking = setInterval(() => {
    const at = performance.now();
    loopMaxMs = Math.max(loopMaxMs, at - last);
    last = at;
  }, 1);
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await store.stats(scope, range);
    times.push(performance.now() - started);
  }
  // A thread that never let the loop turn is seen at the next turn.
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(ticking);
  times.sort((a, b) => a - b);
  return { query, runs, medianMs: percentile(times, 50), p95Ms: percentile(times, 95), loopMaxMs, plan };
}

/** Batches of 10k events with their counts and new visitors, as a flush would hand them over. */
async function timeWritePath(store: Store, seeded: Seeded, today: number): Promise<number> {
  const day = dayText(today);
  let total = 0;
  let spent = 0;
  for (let b = 0; b < WRITE_BATCHES; b++) {
    const events: ClickEvent[] = [];
    const counts = new Map<number, number>();
    for (let i = 0; i < WRITE_BATCH; i++) {
      const index = i % 3 === 0 ? 0 : 1 + ((b * WRITE_BATCH + i) % (LINKS - 1));
      const linkId = seeded.links[index] as number;
      counts.set(linkId, (counts.get(linkId) ?? 0) + 1);
      events.push({
        linkId,
        workspaceId: seeded.accountOf[index] as number,
        at: today * DAY_MS + ((b * WRITE_BATCH + i) % DAY_MS),
        referrer: i % 5 === 0 ? 'direct' : `site-${i % 40}.example`,
        country: ['US', 'DE', 'FR', 'GB', 'ZZ'][i % 5] as string,
        device: i % 3 === 0 ? 'desktop' : 'mobile',
        os: ['Android', 'iOS', 'Windows'][i % 3] as string,
        browser: ['Chrome', 'Safari', 'Firefox', 'Edge'][i % 4] as string,
        language: ['en', 'de', 'fr'][i % 3] as string,
        source: i % 10 === 0 ? 'qr' : 'link',
        visitor: (b * WRITE_BATCH + i).toString(16).padStart(16, '0'),
      });
    }
    const batch: ClickCount[] = [...counts].map(([linkId, clicks]) => ({ linkId, day, clicks, botHits: 0 }));
    const visitors = [...counts].map(([linkId, clicks]) => ({
      linkId,
      workspaceId: seeded.accountOf[seeded.links.indexOf(linkId)] as number,
      day,
      ofLink: clicks,
      ofWorkspace: clicks,
    }));
    const started = performance.now();
    await store.addClicks(batch, { events, visitors, bots: [] });
    spent += performance.now() - started;
    total += events.length;
  }
  return total / (spent / 1000);
}

function queriesOf(seeded: Seeded, today: number) {
  const daily30 = { from: (today - 29) * DAY_MS, to: (today + 1) * DAY_MS, interval: 'day' } as const;
  const hourly7 = { from: (today - 6) * DAY_MS, to: (today + 1) * DAY_MS, interval: 'hour' } as const;
  return [
    { name: 'hot link, 30 days daily', scope: { linkId: seeded.hot }, range: daily30, runs: DAILY_RUNS },
    {
      name: 'its account, 30 days daily',
      scope: { workspaceId: seeded.hotAccount },
      range: daily30,
      runs: DAILY_RUNS,
    },
    { name: 'hot link, 7 days hourly', scope: { linkId: seeded.hot }, range: hourly7, runs: HOURLY_RUNS },
    {
      name: 'its account, 7 days hourly',
      scope: { workspaceId: seeded.hotAccount },
      range: hourly7,
      runs: HOURLY_RUNS,
    },
  ];
}

/** The tables and indexes a plan names, e.g. `link_daily_stats PRIMARY KEY`. */
function planSummary(details: readonly string[]): string {
  const used = new Set<string>();
  for (const detail of details) {
    const sqlite = /^SEARCH (\S+) USING (?:COVERING )?(INDEX \S+|PRIMARY KEY)/.exec(detail);
    if (sqlite) used.add(`${sqlite[1]} ${sqlite[2]}`);
    const pg = /(Index(?: Only)? Scan|Bitmap Index Scan) (?:Backward )?(?:using|on) (\S+)/.exec(detail);
    if (pg) used.add(`${pg[2]} (${pg[1]})`);
    const scan = /^(?:SCAN|Seq Scan on) (click_events|\w+_daily_\w+)/.exec(detail.trim());
    if (scan) used.add(`${scan[1]} FULL SCAN`);
  }
  return [...used].join(', ');
}

async function sqliteRun(dir: string, events: number, today: number): Promise<StoreFigures> {
  const path = join(dir, 'stats', 'snip.db');
  let store = openSqliteStore(path);
  await store.migrate();
  const seeded = await seedLinks(store);
  await store.close();

  console.log(`seeding ${events.toLocaleString('en-US')} events on SQLite…`);
  const started = performance.now();
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144');
  const ROWS = 100;
  const insertEvents = db.prepare(
    `INSERT INTO click_events (link_id, workspace_id, at, visitor, referrer, country, device, os, browser, language, source)
     VALUES ${Array(ROWS).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
  );
  const insertEvent = db.prepare(
    `INSERT INTO click_events (link_id, workspace_id, at, visitor, referrer, country, device, os, browser, language, source)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const dayInsert = (scope: 'link' | 'workspace') =>
    db.prepare(
      `INSERT INTO ${scope}_daily_clicks (${scope}_id, day, clicks, bot_hits, visitors) VALUES (?, ?, ?, ?, ?)`,
    );
  const statInsert = (scope: 'link' | 'workspace') =>
    db.prepare(
      `INSERT INTO ${scope}_daily_stats (${scope}_id, day, dimension, value, clicks) VALUES (?, ?, ?, ?, ?)`,
    );
  const [linkDay, accountDay, linkStat, accountStat] = [
    dayInsert('link'),
    dayInsert('workspace'),
    statInsert('link'),
    statInsert('workspace'),
  ];
  const totals = new Map<number, [number, number, number]>();
  for (const seed of days(seeded, events, today)) {
    db.exec('BEGIN');
    let i = 0;
    for (; i + ROWS <= seed.events.length; i += ROWS)
      insertEvents.run(...seed.events.slice(i, i + ROWS).flat());
    for (; i < seed.events.length; i++) insertEvent.run(...(seed.events[i] as SeedDay['events'][number]));
    for (const row of seed.linkDays) {
      linkDay.run(...row);
      const total = totals.get(row[0]) ?? [0, 0, 0];
      totals.set(row[0], [total[0] + row[2], total[1] + row[3], total[2] + row[4]]);
    }
    for (const row of seed.workspaceDays) accountDay.run(...row);
    for (const row of seed.linkStats) linkStat.run(...row);
    for (const row of seed.workspaceStats) accountStat.run(...row);
    db.exec('COMMIT');
  }
  const addTotals = db.prepare('UPDATE links SET clicks = ?, bot_hits = ?, unique_visitors = ? WHERE id = ?');
  for (const [id, [clicks, bots, visitors]] of totals) addTotals.run(clicks, bots, visitors, id);
  db.exec('PRAGMA wal_checkpoint(TRUNCATE); ANALYZE');
  const seedSeconds = (performance.now() - started) / 1000;
  const size = (names: string[]) =>
    Number(
      db
        .prepare(`SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name IN (${names.map(() => '?').join(', ')})`)
        .get(...names)?.bytes ?? 0,
    );
  const bytesPerEvent = size(['click_events', 'click_events_link_at', 'click_events_account_at']) / events;
  const aggregateBytesPerEvent =
    size(['link_daily_clicks', 'workspace_daily_clicks', 'link_daily_stats', 'workspace_daily_stats']) /
    events;
  const plans = Object.fromEntries(
    (['link', 'workspace'] as const).map((scope) => {
      const sql = STATS_SQL[scope];
      const explain = (text: string) =>
        db
          .prepare(`EXPLAIN QUERY PLAN ${text}`)
          .all()
          .map((row) => String(row.detail));
      return [
        scope,
        {
          day: planSummary([...explain(sql.series), ...explain(sql.breakdowns)]),
          hour: planSummary([...explain(sql.hourly), ...explain(sql.bots), ...explain(sql.botHits)]),
        },
      ];
    }),
  );
  db.close();

  store = openSqliteStore(path);
  try {
    const queries: QueryFigures[] = [];
    for (const q of queriesOf(seeded, today)) {
      const plan = plans['linkId' in q.scope ? 'link' : 'workspace']?.[q.range.interval] ?? '';
      queries.push(await timeQuery(store, q.name, q.scope, q.range, q.runs, plan));
    }
    // After the queries, so that they read the seeded events only.
    const writeEventsPerSecond = await timeWritePath(store, seeded, today);
    return {
      store: 'sqlite',
      events,
      seedSeconds,
      writeEventsPerSecond,
      bytesPerEvent,
      aggregateBytesPerEvent,
      queries,
    };
  } finally {
    await store.close();
  }
}

/** Rows as COPY text: tab-separated, one a line (the seeded values hold no tab, newline or backslash). */
const copyText = (rows: ReadonlyArray<readonly (string | number)[]>) =>
  rows.map((row) => row.join('\t')).join('\n') + (rows.length > 0 ? '\n' : '');

async function pgRun(
  adminUrl: string,
  redisUrl: string,
  events: number,
  today: number,
): Promise<StoreFigures> {
  const scratch = await createScratch(adminUrl, redisUrl);
  const store = openPostgresStore(scratch.databaseUrl, { max: 4 });
  const postgres = (await import('postgres')).default;
  const sql = postgres(scratch.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await store.migrate();
    const seeded = await seedLinks(store);
    console.log(`seeding ${events.toLocaleString('en-US')} events on PostgreSQL…`);
    const started = performance.now();
    const copy = async (
      table: string,
      columns: string,
      rows: ReadonlyArray<readonly (string | number)[]>,
    ) => {
      if (rows.length === 0) return;
      const stream = await sql.unsafe(`COPY ${table} (${columns}) FROM STDIN`).writable();
      stream.end(copyText(rows));
      await finished(stream);
    };
    const totals = new Map<number, [number, number, number]>();
    for (const seed of days(seeded, events, today)) {
      await copy(
        'click_events',
        'link_id, workspace_id, at, visitor, referrer, country, device, os, browser, language, source',
        seed.events,
      );
      await copy('link_daily_clicks', 'link_id, day, clicks, bot_hits, visitors', seed.linkDays);
      await copy(
        'workspace_daily_clicks',
        'workspace_id, day, clicks, bot_hits, visitors',
        seed.workspaceDays,
      );
      await copy('link_daily_stats', 'link_id, day, dimension, value, clicks', seed.linkStats);
      await copy('workspace_daily_stats', 'workspace_id, day, dimension, value, clicks', seed.workspaceStats);
      for (const row of seed.linkDays) {
        const total = totals.get(row[0]) ?? [0, 0, 0];
        totals.set(row[0], [total[0] + row[2], total[1] + row[3], total[2] + row[4]]);
      }
    }
    const ids = [...totals.keys()];
    await sql.unsafe(
      `UPDATE links SET clicks = v.c, bot_hits = v.b, unique_visitors = v.u
       FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[]) AS v (id, c, b, u) WHERE links.id = v.id`,
      [
        ids,
        ids.map((id) => totals.get(id)?.[0] ?? 0),
        ids.map((id) => totals.get(id)?.[1] ?? 0),
        ids.map((id) => totals.get(id)?.[2] ?? 0),
      ],
    );
    await sql.unsafe('VACUUM ANALYZE');
    const seedSeconds = (performance.now() - started) / 1000;
    const bytes = async (relations: string[]) => {
      const [row] = await sql.unsafe(
        `SELECT SUM(pg_total_relation_size(r::regclass))::bigint AS bytes FROM unnest($1::text[]) AS r`,
        [relations],
      );
      return Number(row?.bytes ?? 0);
    };
    const bytesPerEvent = (await bytes(['click_events'])) / events;
    const aggregateBytesPerEvent =
      (await bytes([
        'link_daily_clicks',
        'workspace_daily_clicks',
        'link_daily_stats',
        'workspace_daily_stats',
      ])) / events;
    const queries: QueryFigures[] = [];
    for (const q of queriesOf(seeded, today)) {
      const id = ('linkId' in q.scope ? q.scope.linkId : q.scope.workspaceId) as number;
      const scopeSql = STATS_SQL['linkId' in q.scope ? 'link' : 'workspace'];
      const dayRange = [id, Math.floor(q.range.from / DAY_MS), Math.ceil(q.range.to / DAY_MS)];
      const texts: Array<[string, readonly number[]]> =
        q.range.interval === 'day'
          ? [
              [scopeSql.series, dayRange],
              [scopeSql.breakdowns, dayRange],
            ]
          : [[scopeSql.hourly, [id, q.range.from, q.range.to]]];
      const details: string[] = [];
      for (const [text, params] of texts) {
        let n = 0;
        const numbered = text.replace(/\?/g, () => `$${++n}`);
        const rows = await sql.unsafe(`EXPLAIN ${numbered}`, params as number[]);
        details.push(...rows.map((row) => String(row['QUERY PLAN'])));
      }
      queries.push(await timeQuery(store, q.name, q.scope, q.range, q.runs, planSummary(details)));
    }
    const writeEventsPerSecond = await timeWritePath(store, seeded, today);
    return {
      store: 'postgres',
      events,
      seedSeconds,
      writeEventsPerSecond,
      bytesPerEvent,
      aggregateBytesPerEvent,
      queries,
    };
  } finally {
    await sql.end({ timeout: 5 });
    await store.close();
    await scratch.drop();
  }
}

function linesOf(figures: StoreFigures): string[] {
  return [
    `${figures.store}: ${figures.events.toLocaleString('en-US')} events over ${DAYS} days, ${LINKS} links, hot link ${HOT_SHARE * 100} %: ` +
      `bulk seed ${figures.seedSeconds.toFixed(1)} s; addClicks ${Math.round(figures.writeEventsPerSecond).toLocaleString('en-US')} events/s ` +
      `(${WRITE_BATCHES} batches of ${WRITE_BATCH.toLocaleString('en-US')}); ${figures.bytesPerEvent.toFixed(0)} B/event with indexes, ` +
      `aggregates ${figures.aggregateBytesPerEvent.toFixed(1)} B/event`,
    ...figures.queries.map(
      (q) =>
        `  ${q.query.padEnd(28)} median ${q.medianMs.toFixed(1).padStart(7)} ms  p95 ${q.p95Ms.toFixed(1).padStart(7)} ms  event loop max ${q.loopMaxMs.toFixed(1).padStart(6)} ms  (${q.runs} runs)  ${q.plan}`,
    ),
  ];
}

export async function statsQueryPhase(
  dir: string,
  postgres?: { adminUrl: string; redisUrl: string },
): Promise<StatsQueryResults> {
  const events = eventCount();
  const today = Math.floor(Date.now() / DAY_MS);
  const figures: StoreFigures[] = [];
  const notes: string[] = [];
  const sqlite = await sqliteRun(dir, events, today);
  figures.push(sqlite);
  console.log(linesOf(sqlite).join('\n'));
  if (postgres) {
    try {
      const pg = await pgRun(postgres.adminUrl, postgres.redisUrl, events, today);
      figures.push(pg);
      console.log(linesOf(pg).join('\n'));
    } catch (error) {
      notes.push(
        `stats phase on PostgreSQL skipped: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  const goals = figures.flatMap((f) => {
    const q = f.queries[0] as QueryFigures;
    const stall = Math.max(...f.queries.map((query) => query.loopMaxMs));
    return [
      {
        goal: `stats of one link, 30 days daily, ${f.events.toLocaleString('en-US')} events on ${f.store} < ${GOAL_MS} ms`,
        actual: `median ${q.medianMs.toFixed(1)} ms, p95 ${q.p95Ms.toFixed(1)} ms`,
        met: q.p95Ms < GOAL_MS,
      },
      {
        goal: `no stats query stalls the event loop over ${GOAL_MS} ms on ${f.store}`,
        actual: `longest wait of the event loop ${stall.toFixed(1)} ms`,
        met: stall < GOAL_MS,
      },
    ];
  });
  // 7 days by hour of one link with 2,000,000 events: the raw read before, the rollup after.
  const hourly = await hourlyRollupPhase(dir, postgres);
  console.log(hourly.lines.join('\n'));
  for (const f of hourly.figures) {
    goals.push({
      goal: `7 days by hour of one link with 2,000,000 events on ${f.store} < ${GOAL_MS} ms`,
      actual: `median ${f.rollup?.medianMs.toFixed(1)} ms, p95 ${f.rollup?.p95Ms.toFixed(1)} ms`,
      met: (f.rollup?.p95Ms ?? Number.POSITIVE_INFINITY) < GOAL_MS,
    });
  }
  return { figures, goals, lines: [...figures.flatMap(linesOf), ...hourly.lines], notes };
}
