import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import postgres from 'postgres';
import { openStore } from '../src/adapters/open-store.ts';
import { numbered } from '../src/adapters/postgres/client.ts';
import { linkListing, type TextIndex } from '../src/adapters/sql/link-list.ts';
import { TEXT_FEW, textProbe } from '../src/adapters/sql/link-text-search.ts';
import { type LinkQuery, positionOf } from '../src/core/link-query.ts';
import type { Store } from '../src/core/ports/store.ts';
import { createScratch } from './scratch.ts';
import { codeOf, prepareStore, removeDatabase, seedLinks } from './seed.ts';

/**
 * The link list of GET /api/v1/links and the dashboard (docs/api.md §18) at 100,000 links of one
 * workspace: each sort, a cursor's next page, a code prefix, text (a title's, a tag's, text every
 * link holds, two characters), a tag, a domain and a short URL pasted whole, through the store's listLinks (limit 50, the default state: all but the archived),
 * median and p95 of 50 queries each with values picked at random; with each query's plan (SQLite
 * EXPLAIN QUERY PLAN, PostgreSQL EXPLAIN ANALYZE) and whether it reads every link: a full scan
 * (SQLite `SCAN links` without an index, PostgreSQL `Seq Scan on links`), or a filter along the
 * workspace's index that no page fills early (SQLite: the index searched by the workspace alone for
 * a filtered query; PostgreSQL: the rows its filter removed, at least half the links).
 */

const LINKS = 100_000;
const TAGS = 1000;
/** One link in a hundred is on a second domain. */
const OTHER_DOMAIN = 7;
const RUNS = 50;
const WARM = 5;
const LIMIT = 50;
const NOW = 1_800_000_000_000;

type Kind =
  | 'created'
  | 'created, next page'
  | 'clicks'
  | 'last_click'
  | 'last_click asc, next page'
  | 'title asc'
  | 'code prefix'
  | 'text'
  | 'text of a tag'
  | 'text in every link'
  | 'two characters'
  | 'tag'
  | 'domain'
  | 'short URL';

export interface ListFigures {
  kind: Kind;
  medianMs: number;
  p95Ms: number;
  rows: number;
  plan: string[];
  fullScan: boolean;
  /** Read every link of the workspace along an index, filtering each. */
  readsAll: boolean;
}

export interface ListStoreFigures {
  store: 'sqlite' | 'postgres';
  links: number;
  queries: ListFigures[];
}

const pick = (n: number) => Math.floor(Math.random() * n);
const base: Omit<LinkQuery, 'limit'> = { state: { is: 'listed', now: NOW }, counted: false };

/** Tags, a second domain, clicks, last clicks (a third never clicked) and archived links, in SQL. */
const SHAPE = [
  `INSERT INTO domains (id, host, workspace_id, shared, verification_token, verified_at, https, created_at)
   VALUES (${OTHER_DOMAIN}, 'brand.bench.example', NULL, true, 't', 1, true, 1)`,
  `INSERT INTO link_tags (link_id, tag) SELECT id, 't' || (id % ${TAGS}) FROM links`,
  `UPDATE links SET domain_id = ${OTHER_DOMAIN} WHERE id % 100 = 0`,
  `UPDATE links SET clicks = (id * 7919) % 1000,
     last_clicked_at = CASE WHEN id % 3 = 0 THEN NULL ELSE 1700000000000 + (id * 104729) % 100000000 END,
     archived = (id % 50 = 1)`,
];

/** One query of each kind, the values picked at random; a next page starts after a first page's last link. */
async function queriesOf(store: Store, workspaceId: number): Promise<Record<Kind, () => Promise<LinkQuery>>> {
  const firstOf = async (query: LinkQuery) => {
    const last = (await store.listLinks(workspaceId, query)).links.at(-1);
    if (!last) throw new Error('an empty first page');
    return positionOf(last, query.order ?? 'created');
  };
  const createdAfter = await firstOf({ ...base, limit: LIMIT });
  const lastClickAfter = await firstOf({ ...base, order: 'last_click', ascending: true, limit: LIMIT });
  const q = (query: Omit<LinkQuery, 'limit'>) => async () => ({ ...base, ...query, limit: LIMIT });
  return {
    created: q({}),
    'created, next page': q({ after: createdAfter }),
    clicks: q({ order: 'clicks' }),
    last_click: q({ order: 'last_click' }),
    'last_click asc, next page': q({ order: 'last_click', ascending: true, after: lastClickAfter }),
    'title asc': q({ order: 'title', ascending: true }),
    'code prefix': async () => ({ ...base, limit: LIMIT, find: { text: codeOf(pick(LINKS)).slice(0, 5) } }),
    text: async () => ({ ...base, limit: LIMIT, find: { text: `article ${pick(LINKS)}` } }),
    // A tag's text (and any code starting with it), and the worst case of an index: every link matches.
    'text of a tag': async () => ({ ...base, limit: LIMIT, find: { text: `T${pick(TAGS)}` } }),
    'text in every link': q({ find: { text: 'example.com/articles' } }),
    // Too short for a trigram: SQLite reads along the order, as before migration 021.
    'two characters': async () => ({
      ...base,
      limit: LIMIT,
      find: { text: codeOf(pick(LINKS)).slice(0, 2) },
    }),
    tag: async () => ({ ...base, limit: LIMIT, tags: { values: [`t${pick(TAGS)}`], all: true } }),
    domain: q({ domainId: OTHER_DOMAIN }),
    'short URL': async () => {
      const code = codeOf(pick(LINKS));
      return {
        ...base,
        limit: LIMIT,
        find: { text: `https://sn.ip/${code}`, address: { domainId: 0, code } },
      };
    },
  };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)] ?? 0;

async function time(store: Store, workspaceId: number, make: () => Promise<LinkQuery>) {
  for (let i = 0; i < WARM; i++) await store.listLinks(workspaceId, await make());
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < RUNS; i++) {
    const query = await make();
    const started = performance.now();
    rows += (await store.listLinks(workspaceId, query)).links.length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { medianMs: percentile(times, 50), p95Ms: percentile(times, 95), rows: rows / RUNS };
}

const isFullScan = (plan: readonly string[]) =>
  plan.some((line) => /^SCAN links(?! USING)/.test(line.trim()) || /Seq Scan on links\b/.test(line));

function readsAll(plan: readonly string[], query: LinkQuery): boolean {
  const removed = plan.map((line) => /Rows Removed by Filter: (\d+)/.exec(line)?.[1]).filter(Boolean);
  if (removed.length > 0) return removed.some((n) => Number(n) >= LINKS / 2);
  const filtered = query.find !== undefined || query.tags !== undefined || query.domainId !== undefined;
  return (
    filtered && plan.some((line) => /SEARCH links USING INDEX \S+ \(workspace_id=\?\)$/.test(line.trim()))
  );
}

async function measure(
  store: Store,
  workspaceId: number,
  index: TextIndex,
  explain: (sql: string, params: Array<string | number>) => Promise<string[]>,
  run: (sql: string, params: Array<string | number>) => Promise<Array<Record<string, unknown>>>,
): Promise<ListFigures[]> {
  const queries = await queriesOf(store, workspaceId);
  const figures: ListFigures[] = [];
  for (const kind of Object.keys(queries) as Kind[]) {
    const make = queries[kind];
    const query = await make();
    // Each store first counts the text's matches (link-text-search.ts): many, and it reads along the order.
    const probe = textProbe(query.find, index, workspaceId);
    const many =
      probe && Number((await run(probe.sql, probe.params as Array<string | number>))[0]?.n) >= TEXT_FEW;
    const sql = linkListing(workspaceId, query, () => '?', many ? undefined : index);
    const plan = await explain(sql.select, sql.selectParams);
    const reads = { fullScan: isFullScan(plan), readsAll: readsAll(plan, query) };
    figures.push({ kind, ...(await time(store, workspaceId, make)), plan, ...reads });
  }
  return figures;
}

async function seed(databaseUrl: string, run: (sql: string) => unknown): Promise<number> {
  const { workspaceId } = await prepareStore(databaseUrl, 0);
  await seedLinks(databaseUrl, workspaceId, 0, LINKS);
  for (const statement of SHAPE) await run(statement);
  return workspaceId;
}

async function sqliteRun(dir: string): Promise<ListStoreFigures> {
  const path = join(dir, 'list.db');
  const databaseUrl = `sqlite:${path}`;
  console.log(`seeding ${LINKS.toLocaleString('en-US')} links for the list on SQLite…`);
  const db = new DatabaseSync(path, { timeout: 10_000 });
  try {
    const workspaceId = await seed(databaseUrl, (sql) => db.exec(sql));
    db.exec('ANALYZE');
    const store = await openStore(databaseUrl, { prepare: false });
    try {
      const queries = await measure(
        store,
        workspaceId,
        'fts5',
        async (sql, params) =>
          db
            .prepare(`EXPLAIN QUERY PLAN ${sql}`)
            .all(...params)
            .map((row) => String(row.detail)),
        async (sql, params) => db.prepare(sql).all(...params),
      );
      return { store: 'sqlite', links: LINKS, queries };
    } finally {
      await store.close();
    }
  } finally {
    db.close();
    removeDatabase(path);
  }
}

async function pgRun(adminUrl: string, redisUrl: string): Promise<ListStoreFigures> {
  const scratch = await createScratch(adminUrl, redisUrl);
  const sql = postgres(scratch.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    console.log(`seeding ${LINKS.toLocaleString('en-US')} links for the list on PostgreSQL…`);
    const workspaceId = await seed(scratch.databaseUrl, (statement) => sql.unsafe(statement));
    // What autovacuum would soon do after such a load: the planner's statistics.
    await sql.unsafe('VACUUM ANALYZE links');
    await sql.unsafe('VACUUM ANALYZE link_tags');
    const store = await openStore(scratch.databaseUrl, { prepare: false });
    try {
      const queries = await measure(
        store,
        workspaceId,
        'pg_trgm',
        async (text, params) =>
          (await sql.unsafe(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${numbered(text)}`, params)).map(
            (row) => String(row['QUERY PLAN']),
          ),
        async () => [],
      );
      return { store: 'postgres', links: LINKS, queries };
    } finally {
      await store.close();
    }
  } finally {
    await sql.end({ timeout: 5 });
    await scratch.drop();
  }
}

export function listLinesOf(figures: ListStoreFigures): string[] {
  const lines = [
    `${figures.store}: the link list at ${figures.links.toLocaleString('en-US')} links, listLinks limit ${LIMIT}:`,
  ];
  for (const q of figures.queries)
    lines.push(
      `  ${q.kind.padEnd(26)} median ${q.medianMs.toFixed(2).padStart(7)} ms  p95 ${q.p95Ms.toFixed(2).padStart(7)} ms  ` +
        `${q.rows.toFixed(1).padStart(5)} links  ${q.fullScan ? 'FULL SCAN' : q.readsAll ? "reads every link along the workspace's index" : 'indexed'}`,
      ...q.plan.map((line) => `      ${line}`),
    );
  return lines;
}

/** The list's figures on SQLite, and on PostgreSQL when given; a failure there is a note. */
export async function listQueryPhase(
  dir: string,
  pg: { adminUrl: string; redisUrl: string } | undefined,
  notes: string[],
): Promise<ListStoreFigures[]> {
  const figures = [await sqliteRun(dir)];
  if (pg) {
    try {
      figures.push(await pgRun(pg.adminUrl, pg.redisUrl));
    } catch (error) {
      notes.push(
        `link list on PostgreSQL skipped: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  } else notes.push('link list on PostgreSQL skipped: PostgreSQL or Redis not reachable');
  for (const f of figures) console.log(listLinesOf(f).join('\n'));
  return figures;
}
