import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import postgres from 'postgres';
import { openStore } from '../src/adapters/open-store.ts';
import { prefixEnd } from '../src/adapters/sql/moderation-scripts.ts';
import { LINK_COLUMNS } from '../src/adapters/sql/rows.ts';
import type { NewLink } from '../src/core/entities.ts';
import type { LinkSearch } from '../src/core/ports/abuse-store.ts';
import type { Store } from '../src/core/ports/store.ts';
import { parseTargetUrl, urlHash } from '../src/core/target-url.ts';
import { linkSearchOf } from '../src/features/abuse/index.ts';
import { type ListStoreFigures, listLinesOf, listQueryPhase } from './list-query.ts';
import { createScratch } from './scratch.ts';
import { codeOf, prepareStore, removeDatabase } from './seed.ts';
import { LARGE } from './settings.ts';

/**
 * The operator's link search (SPEC §13: by code, host or URL, at 1M links in under 100 ms on both
 * stores): a million links over 1,000 target hosts seeded through insertLinksBulk, then the store's
 * searchLinks (limit 50) as the console asks it (linkSearchOf) for a code, a host (four ranges:
 * http and https, each followed by "/" or ":") and a URL prefix, median and p95 of 50 queries of
 * each; with the plan of each query (SQLite EXPLAIN QUERY PLAN, PostgreSQL EXPLAIN) and, on
 * PostgreSQL, the index scans the timed queries made (pg_stat_user_indexes).
 */

const HOSTS = 1000;
const RUNS = 50;
const WARM = 5;
const LIMIT = 50;
const CHUNK = 50_000;
const GOAL_MS = 100;

type Kind = 'code' | 'host' | 'url prefix';

export interface SearchFigures {
  kind: Kind;
  runs: number;
  medianMs: number;
  p95Ms: number;
  /** Links returned, averaged over the runs. */
  rows: number;
  /** The plan's lines for one query of the kind (a host's four ranges share one shape: the first's). */
  plan: string[];
  /** PostgreSQL: the links indexes the timed queries scanned, and how many times. */
  indexScans?: Record<string, number>;
}

export interface SearchStoreFigures {
  store: 'sqlite' | 'postgres';
  links: number;
  seedSeconds: number;
  queries: SearchFigures[];
}

export interface SearchQueryResults {
  figures: SearchStoreFigures[];
  /** The link list's queries at 100,000 links (bench/list-query.ts). */
  list: ListStoreFigures[];
  goals: Array<{ goal: string; actual: string; met: boolean }>;
  lines: string[];
  notes: string[];
}

const hostOf = (h: number) => `www.site-${h}.example`;

/** Link i: on host i mod 1,000, one in ten over http, the rest https. */
function urlOf(i: number): string {
  return `${i % 10 === 0 ? 'http' : 'https'}://${hostOf(i % HOSTS)}/articles/${i}?ref=${i % 7}`;
}

async function seed(databaseUrl: string): Promise<number> {
  const started = performance.now();
  const { workspaceId } = await prepareStore(databaseUrl, 0);
  const store = await openStore(databaseUrl, { prepare: false });
  try {
    for (let start = 0; start < LARGE; start += CHUNK) {
      const links: NewLink[] = [];
      for (let i = start; i < Math.min(start + CHUNK, LARGE); i++) {
        const target = parseTargetUrl(urlOf(i));
        if (!target) throw new Error(`bench URL ${urlOf(i)} is not a target`);
        links.push({
          code: codeOf(i),
          domainId: 0,
          workspaceId,
          groupId: null,
          longUrl: target.longUrl,
          normalizedUrl: target.normalized,
          urlHash: urlHash(target.normalized),
          title: '',
        });
      }
      await store.insertLinksBulk(links);
    }
  } finally {
    await store.close();
  }
  return (performance.now() - started) / 1000;
}

/** WARM + RUNS searches of each kind, over links and hosts picked at random, as the console builds them. */
function searchesOf(): Record<Kind, LinkSearch[]> {
  const pick = (n: number) => Math.floor(Math.random() * n);
  const make = (text: () => string) =>
    Array.from({ length: WARM + RUNS }, () => {
      const search = linkSearchOf(text(), () => false);
      if (!search) throw new Error('the console would not search that');
      return search;
    });
  return {
    code: make(() => codeOf(pick(LARGE))),
    host: make(() => hostOf(pick(HOSTS))),
    // Links of a host under /articles/ whose number starts with 1 to 99.
    'url prefix': make(() => `https://${hostOf(pick(HOSTS))}/articles/${1 + pick(99)}`),
  };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)] ?? 0;

async function timeSearches(store: Store, kind: Kind, searches: readonly LinkSearch[]) {
  for (const search of searches.slice(0, WARM)) await store.searchLinks(search, LIMIT);
  const times: number[] = [];
  let rows = 0;
  for (const search of searches.slice(WARM)) {
    const started = performance.now();
    rows += (await store.searchLinks(search, LIMIT)).length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    kind,
    runs: times.length,
    medianMs: percentile(times, 50),
    p95Ms: percentile(times, 95),
    rows: rows / times.length,
  };
}

/**
 * The statements moderation-scripts.ts runs for a search (its text, with `collate` as each store
 * passes it) and their parameters: one for a code, one per prefix.
 */
function statementsOf(search: LinkSearch, collate: string): Array<[string, Array<string | number>]> {
  if ('code' in search)
    return [
      [
        `SELECT ${LINK_COLUMNS} FROM links WHERE code = ? AND deleted_at IS NULL ORDER BY id DESC LIMIT ?`,
        [search.code, LIMIT],
      ],
    ];
  return search.urlPrefixes.map((prefix) => [
    `SELECT ${LINK_COLUMNS} FROM links
     WHERE normalized_url${collate} >= ? AND normalized_url${collate} < ? AND deleted_at IS NULL
     ORDER BY normalized_url${collate} LIMIT ?`,
    [prefix, prefixEnd(prefix), LIMIT],
  ]);
}

async function sqliteRun(dir: string): Promise<SearchStoreFigures> {
  const path = join(dir, 'search.db');
  const databaseUrl = `sqlite:${path}`;
  console.log(`seeding ${LARGE.toLocaleString('en-US')} links over ${HOSTS} hosts on SQLite…`);
  const seedSeconds = await seed(databaseUrl);
  const searches = searchesOf();
  const db = new DatabaseSync(path, { readOnly: true });
  const plans = new Map<Kind, string[]>();
  for (const kind of Object.keys(searches) as Kind[]) {
    const [text, params] = statementsOf(searches[kind][0] as LinkSearch, '')[0] as [string, string[]];
    const rows = db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params);
    plans.set(
      kind,
      rows.map((row) => String(row.detail)),
    );
  }
  db.close();
  const store = await openStore(databaseUrl, { prepare: false });
  try {
    const queries: SearchFigures[] = [];
    for (const kind of Object.keys(searches) as Kind[])
      queries.push({ ...(await timeSearches(store, kind, searches[kind])), plan: plans.get(kind) ?? [] });
    return { store: 'sqlite', links: LARGE, seedSeconds, queries };
  } finally {
    await store.close();
    removeDatabase(path);
  }
}

/** Index scans per links index so far, as the statistics collector has them. */
async function indexScans(sql: postgres.Sql): Promise<Map<string, number>> {
  const rows = await sql<{ name: string; scans: string }[]>`
    SELECT indexrelname AS name, idx_scan AS scans FROM pg_stat_user_indexes WHERE relname = 'links'`;
  return new Map(rows.map((row) => [row.name, Number(row.scans)]));
}

/**
 * The index scans made since `before`, once they add up to `expected` (or after 15 s): a backend
 * hands its counts to the statistics when idle, at most once a second, or up to 10 s later.
 */
async function scansSince(
  sql: postgres.Sql,
  before: ReadonlyMap<string, number>,
  expected: number,
): Promise<Record<string, number>> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const deltas = [...(await indexScans(sql))]
      .map(([name, count]) => [name, count - (before.get(name) ?? 0)] as const)
      .filter(([, count]) => count > 0);
    if (deltas.reduce((sum, [, count]) => sum + count, 0) >= expected || Date.now() > deadline)
      return Object.fromEntries(deltas);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function pgRun(adminUrl: string, redisUrl: string): Promise<SearchStoreFigures> {
  const scratch = await createScratch(adminUrl, redisUrl);
  const sql = postgres(scratch.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    console.log(`seeding ${LARGE.toLocaleString('en-US')} links over ${HOSTS} hosts on PostgreSQL…`);
    const seedSeconds = await seed(scratch.databaseUrl);
    // What autovacuum would soon do after such a load: the planner's statistics.
    await sql.unsafe('VACUUM ANALYZE links');
    const searches = searchesOf();
    const store = await openStore(scratch.databaseUrl, { prepare: false });
    try {
      const queries: SearchFigures[] = [];
      for (const kind of Object.keys(searches) as Kind[]) {
        const [text, params] = statementsOf(searches[kind][0] as LinkSearch, ' COLLATE "C"')[0] as [
          string,
          Array<string | number>,
        ];
        let n = 0;
        const numbered = text.replace(/\?/g, () => `$${++n}`);
        const plan = (await sql.unsafe(`EXPLAIN ${numbered}`, params)).map((row) =>
          String(row['QUERY PLAN']),
        );
        const before = await indexScans(sql);
        const timed = await timeSearches(store, kind, searches[kind]);
        const expected = searches[kind].reduce((sum, search) => sum + statementsOf(search, '').length, 0);
        queries.push({ ...timed, plan, indexScans: await scansSince(sql, before, expected) });
      }
      return { store: 'postgres', links: LARGE, seedSeconds, queries };
    } finally {
      await store.close();
    }
  } finally {
    await sql.end({ timeout: 5 });
    await scratch.drop();
  }
}

/** The indexes a plan names, e.g. `links_code`, or a full scan. */
function indexesOf(plan: readonly string[]): string {
  const used = new Set<string>();
  for (const line of plan) {
    const sqlite = /USING (?:COVERING )?INDEX (\S+)/.exec(line);
    if (sqlite?.[1]) used.add(sqlite[1]);
    const pg = /Index(?: Only)? Scan (?:Backward )?(?:using|on) (\S+)/.exec(line);
    if (pg?.[1]) used.add(pg[1]);
    if (/^(?:SCAN links\b|.*Seq Scan on links)/.test(line.trim())) used.add('links FULL SCAN');
  }
  return [...used].join(', ') || 'no index';
}

function linesOf(figures: SearchStoreFigures): string[] {
  const lines = [
    `${figures.store}: ${figures.links.toLocaleString('en-US')} links over ${HOSTS} hosts, seeded in ${figures.seedSeconds.toFixed(1)} s; searchLinks, limit ${LIMIT}:`,
  ];
  for (const q of figures.queries) {
    const scans = q.indexScans
      ? `; index scans of the timed runs: ${
          Object.entries(q.indexScans)
            .map(([name, count]) => `${name} ${count}`)
            .join(', ') || 'none'
        }`
      : '';
    lines.push(
      `  ${q.kind.padEnd(10)} median ${q.medianMs.toFixed(2).padStart(7)} ms  p95 ${q.p95Ms.toFixed(2).padStart(7)} ms  ` +
        `${q.rows.toFixed(1).padStart(5)} links  (${q.runs} runs)  ${indexesOf(q.plan)}${scans}`,
      ...q.plan.map((line) => `      ${line}`),
    );
  }
  return lines;
}

export async function searchQueryPhase(
  dir: string,
  pg?: { adminUrl: string; redisUrl: string },
): Promise<SearchQueryResults> {
  const figures: SearchStoreFigures[] = [];
  const notes: string[] = [];
  const list = await listQueryPhase(dir, pg, notes);
  const sqlite = await sqliteRun(dir);
  figures.push(sqlite);
  console.log(linesOf(sqlite).join('\n'));
  if (pg) {
    try {
      const result = await pgRun(pg.adminUrl, pg.redisUrl);
      figures.push(result);
      console.log(linesOf(result).join('\n'));
    } catch (error) {
      notes.push(
        `link search on PostgreSQL skipped: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  } else notes.push('link search on PostgreSQL skipped: PostgreSQL or Redis not reachable');
  const goals = figures.map((f) => {
    const worst = Math.max(...f.queries.map((q) => q.p95Ms));
    return {
      goal: `operator's link search (code, host, URL prefix) at ${f.links.toLocaleString('en-US')} links on ${f.store} < ${GOAL_MS} ms`,
      actual: f.queries
        .map(
          (q) =>
            `${q.kind} median ${q.medianMs.toFixed(2)} / p95 ${q.p95Ms.toFixed(2)} ms (${indexesOf(q.plan)})`,
        )
        .join('; '),
      met: worst < GOAL_MS,
    };
  });
  // The list's indexed filters never read the whole table (SPEC §18): a code prefix, a tag, a domain.
  const indexed = ['code prefix', 'tag', 'domain', 'short URL'];
  for (const f of list) {
    const checked = f.queries.filter((q) => indexed.includes(q.kind));
    goals.push({
      goal: `link list at ${f.links.toLocaleString('en-US')} links on ${f.store}: no full scan for ${indexed.join(', ')}`,
      actual: checked
        .map(
          (q) =>
            `${q.kind} ${q.fullScan ? 'FULL SCAN' : q.readsAll ? 'reads every link' : 'indexed'}, p95 ${q.p95Ms.toFixed(2)} ms`,
        )
        .join('; '),
      met: checked.every((q) => !q.fullScan && !q.readsAll),
    });
  }
  return { figures, list, goals, lines: [...list.flatMap(listLinesOf), ...figures.flatMap(linesOf)], notes };
}
