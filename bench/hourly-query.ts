import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { finished } from 'node:stream/promises';
import postgres from 'postgres';
import { openPostgresStore } from '../src/adapters/postgres/store.ts';
import { STATS_SQL } from '../src/adapters/sql/stats-queries.ts';
import { openSqliteStore } from '../src/adapters/sqlite/store.ts';
import { type ClickEvent, EVENT_DIMENSIONS } from '../src/core/analytics/model.ts';
import { dayText } from '../src/core/days.ts';
import type { Store } from '../src/core/ports/store.ts';
import { createScratch } from './scratch.ts';

/**
 * Hourly answers at volume (docs/adr/041): one link with 2,000,000 events over its last 7 days,
 * bulk-loaded with the hourly rollup the flush would have made of them; then 7 days by hour of it
 * read the old way (main's raw read of click_events, the statement alone) and through the store
 * (the rollup), median and p95; then the flush's events/s (addClicks, 20 batches of 10,000 events
 * over 100 links). BENCH_HOURLY_PART=flush measures the flush alone, so an older checkout can run
 * this file for the "before" figure.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const EVENTS = Number(process.env.BENCH_HOURLY_EVENTS ?? 2_000_000);
const RUNS = 15;
const LINKS = 100;
const GOAL_MS = 100;

/** The seeded values: 40 referrer hosts and a few of each other dimension, as the stats phase's. */
function fields(i: number): Omit<ClickEvent, 'linkId' | 'workspaceId' | 'at' | 'visitor'> {
  return {
    referrer: i % 5 === 0 ? 'direct' : `site-${i % 40}.example`,
    country: ['US', 'DE', 'FR', 'GB', 'ZZ', 'JP', 'BR', 'IN'][i % 8] as string,
    device: i % 3 === 0 ? 'desktop' : 'mobile',
    os: ['Android', 'iOS', 'Windows', 'macOS'][i % 4] as ClickEvent['os'],
    browser: ['Chrome', 'Safari', 'Firefox', 'Edge'][(i >> 2) % 4] as string,
    language: ['en', 'de', 'fr', 'es', 'ja'][i % 5] as string,
    source: i % 10 === 0 ? 'qr' : 'link',
  };
}

async function givenLinks(store: Store): Promise<{ links: number[]; workspaceId: number }> {
  const plan = await store.upsertPlan({
    name: 'bench-hourly',
    apiAccess: true,
    urlQuota: LINKS,
    rateLimitPerHour: 1000,
  });
  const created = await store.createAccount('hourly@bench.example', plan.id, null);
  if (created.kind !== 'created') throw new Error('bench account exists');
  const workspaceId = created.account.workspace.id;
  await store.insertLinksBulk(
    Array.from({ length: LINKS }, (_, i) => {
      const url = `https://example.com/hourly/${i}`;
      const urlHash = createHash('sha256').update(url).digest('hex');
      return {
        code: `hr${i.toString(36).padStart(4, '0')}`,
        domainId: 0,
        workspaceId,
        groupId: null,
        longUrl: url,
        normalizedUrl: url,
        urlHash,
        title: '',
      };
    }),
  );
  const listed = await store.listLinks(workspaceId, { limit: LINKS, counted: false });
  return { links: listed.links.map((link) => link.id).sort((a, b) => a - b), workspaceId };
}

type Row = Array<string | number>;

/** The events of the hot link in chunks, and the rollup rows they make (both scopes), as rows. */
function* seedChunks(link: number, workspaceId: number, firstHour: number) {
  const span = 7 * 24 * HOUR_MS;
  const hours = new Map<number, number>();
  const stats = new Map<string, number>();
  const CHUNK = 50_000;
  for (let start = 0; start < EVENTS; start += CHUNK) {
    const rows: Row[] = [];
    for (let i = start; i < Math.min(EVENTS, start + CHUNK); i++) {
      const at = firstHour * HOUR_MS + Math.floor((i * span) / EVENTS);
      const hour = Math.floor(at / HOUR_MS);
      const f = fields(i);
      // Visitor ids repeat within a day: about 5 clicks each.
      const visitor = BigInt.asIntN(64, BigInt(Math.floor(i / 5) % 100_000) * 2654435761n).toString();
      rows.push([
        link,
        workspaceId,
        at,
        visitor,
        f.referrer,
        f.country,
        f.device,
        f.os,
        f.browser,
        f.language,
        f.source,
      ]);
      hours.set(hour, (hours.get(hour) ?? 0) + 1);
      for (const dim of EVENT_DIMENSIONS) {
        const key = `${hour}\t${dim}\t${f[dim]}`;
        stats.set(key, (stats.get(key) ?? 0) + 1);
      }
    }
    yield { events: rows };
  }
  // Visitors are not the point here: a twentieth of the clicks as first sightings.
  const hourRows = [...hours].map(([hour, clicks]) => [hour, clicks, Math.ceil(clicks / 20)]);
  const statRows = [...stats].map(([key, clicks]) => [...key.split('\t'), clicks]);
  yield {
    hourly: [
      ['link_hourly_clicks', 'link_id, hour, clicks, visitors', hourRows.map((r) => [link, ...r])],
      [
        'workspace_hourly_clicks',
        'workspace_id, hour, clicks, visitors',
        hourRows.map((r) => [workspaceId, ...r]),
      ],
      ['link_hourly_stats', 'link_id, hour, dimension, value, clicks', statRows.map((r) => [link, ...r])],
      [
        'workspace_hourly_stats',
        'workspace_id, hour, dimension, value, clicks',
        statRows.map((r) => [workspaceId, ...r]),
      ],
    ] as Array<[string, string, Row[]]>,
  };
}

const EVENT_COLUMNS =
  'link_id, workspace_id, at, visitor, referrer, country, device, os, browser, language, source';
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)] ?? 0;

async function timed(run: () => Promise<unknown>): Promise<{ medianMs: number; p95Ms: number }> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { medianMs: percentile(times, 50), p95Ms: percentile(times, 95) };
}

/** addClicks with 20 batches of 10,000 events (a third on the first link), as a flush hands them over. */
async function flushEventsPerSecond(store: Store, links: number[], workspaceId: number): Promise<number> {
  const today = Math.floor(Date.now() / DAY_MS);
  let spent = 0;
  let total = 0;
  for (let b = 0; b < 20; b++) {
    const events: ClickEvent[] = [];
    const counts = new Map<number, number>();
    for (let i = 0; i < 10_000; i++) {
      const linkId = links[i % 3 === 0 ? 0 : 1 + ((b * 10_000 + i) % (links.length - 1))] as number;
      counts.set(linkId, (counts.get(linkId) ?? 0) + 1);
      const at = today * DAY_MS + (((b * 10_000 + i) * 1000) % DAY_MS);
      events.push({
        linkId,
        workspaceId,
        at,
        ...fields(i),
        visitor: (b * 10_000 + i).toString(16).padStart(16, '0'),
      });
    }
    const day = dayText(today);
    const batch = [...counts].map(([linkId, clicks]) => ({ linkId, day, clicks, botHits: 0 }));
    const visitors = [...counts].map(([linkId, clicks]) => ({
      linkId,
      workspaceId,
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

export interface HourlyFigures {
  store: 'sqlite' | 'postgres';
  seedSeconds?: number;
  raw?: { medianMs: number; p95Ms: number };
  rollup?: { medianMs: number; p95Ms: number };
  flushEventsPerSecond: number;
}

const flushOnly = process.env.BENCH_HOURLY_PART === 'flush';

async function measure(
  kind: HourlyFigures['store'],
  store: Store,
  load: (table: string, columns: string, rows: Row[]) => Promise<void>,
  rawRead: (params: number[]) => Promise<unknown>,
): Promise<HourlyFigures> {
  await store.migrate();
  const { links, workspaceId } = await givenLinks(store);
  const hot = links[0] as number;
  if (flushOnly)
    return { store: kind, flushEventsPerSecond: await flushEventsPerSecond(store, links, workspaceId) };
  const today = Math.floor(Date.now() / DAY_MS);
  const firstHour = (today - 6) * 24;
  const started = performance.now();
  for (const chunk of seedChunks(hot, workspaceId, firstHour)) {
    if (chunk.events) await load('click_events', EVENT_COLUMNS, chunk.events);
    for (const [table, columns, rows] of chunk.hourly ?? []) await load(table, columns, rows);
  }
  const seedSeconds = (performance.now() - started) / 1000;
  const range = { from: firstHour * HOUR_MS, to: (today + 1) * DAY_MS, interval: 'hour' } as const;
  const raw = await timed(() => rawRead([hot, range.from, range.to]));
  const rollup = await timed(() => store.stats({ linkId: hot }, range));
  const flush = await flushEventsPerSecond(store, links.slice(1), workspaceId);
  return { store: kind, seedSeconds, raw, rollup, flushEventsPerSecond: flush };
}

async function sqliteRun(dir: string): Promise<HourlyFigures> {
  const path = join(dir, 'hourly', 'snip.db');
  mkdirSync(join(dir, 'hourly'), { recursive: true });
  const store = openSqliteStore(path);
  const db = new DatabaseSync(path, { timeout: 10_000 });
  try {
    const load = async (table: string, columns: string, rows: Row[]) => {
      const width = columns.split(',').length;
      const insert = db.prepare(
        `INSERT INTO ${table} (${columns}) VALUES (${Array(width).fill('?').join(', ')})`,
      );
      db.exec('BEGIN');
      for (const row of rows)
        insert.run(...row.map((v, i) => (table === 'click_events' && i === 3 ? BigInt(v) : v)));
      db.exec('COMMIT');
    };
    let analyzed = false;
    return await measure('sqlite', store, load, async (params) => {
      if (!analyzed) db.exec('ANALYZE');
      analyzed = true;
      return db.prepare(STATS_SQL.link.hourly).all(...params);
    });
  } finally {
    db.close();
    await store.close();
  }
}

async function pgRun(adminUrl: string, redisUrl: string): Promise<HourlyFigures> {
  const scratch = await createScratch(adminUrl, redisUrl);
  const store = openPostgresStore(scratch.databaseUrl, { max: 4 });
  const sql = postgres(scratch.databaseUrl, { max: 1, onnotice: () => {} });
  let analyzed = false;
  try {
    const load = async (table: string, columns: string, rows: Row[]) => {
      const stream = await sql.unsafe(`COPY ${table} (${columns}) FROM STDIN`).writable();
      stream.end(`${rows.map((row) => row.join('\t')).join('\n')}\n`);
      await finished(stream);
    };
    return await measure('postgres', store, load, async (params) => {
      if (!analyzed) await sql.unsafe('VACUUM ANALYZE');
      analyzed = true;
      let n = 0;
      return sql.unsafe(
        STATS_SQL.link.hourly.replace(/\?/g, () => `$${++n}`),
        params,
      );
    });
  } finally {
    await sql.end({ timeout: 5 });
    await store.close();
    await scratch.drop();
  }
}

export function hourlyLines(figures: HourlyFigures): string[] {
  const ms = (t?: { medianMs: number; p95Ms: number }) =>
    t ? `median ${t.medianMs.toFixed(1)} ms, p95 ${t.p95Ms.toFixed(1)} ms` : 'not measured';
  return [
    `${figures.store}: 7 days by hour of one link with ${EVENTS.toLocaleString('en-US')} events` +
      (figures.seedSeconds === undefined ? '' : ` (seed ${figures.seedSeconds.toFixed(1)} s)`),
    `  raw events (before): ${ms(figures.raw)}`,
    `  rollup (after):      ${ms(figures.rollup)}  goal < ${GOAL_MS} ms`,
    `  flush: ${Math.round(figures.flushEventsPerSecond).toLocaleString('en-US')} events/s`,
  ];
}

export async function hourlyRollupPhase(dir: string, pg?: { adminUrl: string; redisUrl: string }) {
  const figures = [await sqliteRun(dir)];
  if (pg) figures.push(await pgRun(pg.adminUrl, pg.redisUrl));
  return { figures, lines: figures.flatMap(hourlyLines) };
}

if (process.argv[1] === import.meta.filename) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'snip-hourly-'));
  try {
    const pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const { lines } = await hourlyRollupPhase(dir, { adminUrl: pgUrl, redisUrl });
    console.log(lines.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}
