import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import postgres from 'postgres';
import { openStore } from '../src/adapters/open-store.ts';
import type { NewLink } from '../src/core/entities.ts';
import { parseTargetUrl, urlHash } from '../src/core/target-url.ts';
import { accountOperations } from '../src/features/workspaces/cli/account-operations.ts';
import { startSnip } from './processes.ts';
import { createScratch } from './scratch.ts';
import { codeOf, prepareStore, removeDatabase } from './seed.ts';
import { LARGE } from './settings.ts';
import { sessionCookie } from './sign-in.ts';

/**
 * The operator console at 1,000,000 links (docs/api.md §22: every console page under 200 ms p95 on
 * both stores). A million links over 100 workspaces, made over the last 365 days; 365 days of
 * clicks per workspace; 100 reports; then `snip serve` on the store, an operator signed in over
 * HTTP, and each console page fetched one after the other (5 to warm, 40 timed), median and p95 of
 * the whole answer as a browser would wait for it.
 */

const WORKSPACES = 100;
const DAYS = 365;
const REPORTS = 100;
const WARM = 5;
const RUNS = 40;
const GOAL_MS = 200;
const DAY_MS = 86_400_000;
const PASSWORD = 'bench operator password';
const OPERATOR = 'operator@bench.example';
/** BENCH_CONSOLE_STORES: `sqlite`, `postgres` or both (the default), comma-separated. */
const STORES = (process.env.BENCH_CONSOLE_STORES ?? 'sqlite,postgres').split(',').map((s) => s.trim());

export interface ConsolePageFigures {
  page: string;
  medianMs: number;
  p95Ms: number;
  bytes: number;
}

export interface ConsoleStoreFigures {
  store: 'sqlite' | 'postgres';
  links: number;
  seedSeconds: number;
  pages: ConsolePageFigures[];
}

export interface ConsoleResults {
  figures: ConsoleStoreFigures[];
  goals: Array<{ goal: string; actual: string; met: boolean }>;
  lines: string[];
  notes: string[];
}

const urlOf = (i: number) => `https://www.site-${i % 1000}.example/articles/${i}`;

/** Runs statements on the store's database beside it: a SQLite file or a PostgreSQL database. */
function rawSql(databaseUrl: string) {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new DatabaseSync(databaseUrl.slice('sqlite:'.length), { timeout: 10_000 });
    return { run: async (text: string) => void db.exec(text), close: async () => db.close() };
  }
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  return { run: async (text: string) => void (await sql.unsafe(text)), close: () => sql.end({ timeout: 5 }) };
}

async function seed(databaseUrl: string): Promise<number> {
  const started = performance.now();
  const { workspaceId } = await prepareStore(databaseUrl, 0);
  const store = await openStore(databaseUrl, { prepare: false });
  try {
    const ops = accountOperations(store);
    const workspaces = [workspaceId];
    for (let w = 1; w < WORKSPACES; w++)
      workspaces.push((await ops.createAccount(`owner-${w}@bench.example`, 'bench')).account.workspace.id);
    await ops.createAccount(OPERATOR, 'bench', PASSWORD);
    const operator = await store.findUserByEmail(OPERATOR);
    await store.setUserOperator(operator?.id ?? 0, true);
    const each = LARGE / WORKSPACES;
    for (const [w, id] of workspaces.entries()) {
      const links: NewLink[] = [];
      for (let i = w * each; i < (w + 1) * each; i++) {
        const target = parseTargetUrl(urlOf(i));
        if (!target) throw new Error(`bench URL ${urlOf(i)} is not a target`);
        links.push({
          code: codeOf(i),
          domainId: 0,
          workspaceId: id,
          groupId: null,
          longUrl: target.longUrl,
          normalizedUrl: target.normalized,
          urlHash: urlHash(target.normalized),
          title: `Article ${i}`,
        });
      }
      await store.insertLinksBulk(links);
    }
    for (let r = 0; r < REPORTS; r++) {
      const index = Math.floor(Math.random() * LARGE);
      const link = await store.findLinkByCode(0, codeOf(index));
      await store.addReport({
        url: `https://sn.ip/${codeOf(index)}`,
        linkId: link?.id ?? 0,
        reason: 'phishing',
        comment: `report ${r}`,
        email: null,
      });
    }
  } finally {
    await store.close();
  }
  const sql = rawSql(databaseUrl);
  const now = Date.now();
  const today = Math.floor(now / DAY_MS);
  const sqlite = databaseUrl.startsWith('sqlite:');
  try {
    // Made over the last year, and clicked every day of it.
    await sql.run(`UPDATE links SET created_at = ${now} - (id % ${DAYS}) * ${DAY_MS}`);
    await sql.run(`UPDATE users SET created_at = ${now} - (id % ${DAYS}) * ${DAY_MS}`);
    await sql.run(
      sqlite
        ? `WITH RECURSIVE d(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM d WHERE n < ${DAYS - 1})
           INSERT INTO workspace_daily_clicks (workspace_id, day, clicks)
           SELECT w.id, ${today} - d.n, (w.id * 37 + d.n * 11) % 500 + 1 FROM workspaces w, d`
        : `INSERT INTO workspace_daily_clicks (workspace_id, day, clicks)
           SELECT w.id, ${today} - n, (w.id * 37 + n * 11) % 500 + 1 FROM workspaces w, generate_series(0, ${DAYS - 1}) n`,
    );
    // What autovacuum would soon do after such a load: the planner's statistics.
    await sql.run(sqlite ? 'ANALYZE' : 'VACUUM ANALYZE');
  } finally {
    await sql.close();
  }
  return (performance.now() - started) / 1000;
}

const PAGES = (code: string): Array<[string, string]> => [
  ['overview', '/admin'],
  ['users', '/admin/users'],
  ['workspaces', '/admin/workspaces'],
  ['links, newest', '/admin/links'],
  ['links, a code', `/admin/links?q=${code}`],
  ['links, a host', '/admin/links?q=www.site-7.example'],
  ['reports', '/admin/reports'],
  ['reports, all', '/admin/reports?status=all'],
  ['blocklists', '/admin/blocklists'],
  ['audit log', '/admin/audit'],
];

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)] ?? 0;

async function timePage(base: string, cookie: string, page: string, path: string) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < WARM + RUNS; i++) {
    const started = performance.now();
    const answer = await fetch(`${base}${path}`, { headers: { cookie }, redirect: 'manual' });
    const body = await answer.text();
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
    if (i >= WARM) times.push(performance.now() - started);
    bytes = body.length;
  }
  times.sort((a, b) => a - b);
  return { page, medianMs: percentile(times, 50), p95Ms: percentile(times, 95), bytes };
}

async function measure(store: 'sqlite' | 'postgres', databaseUrl: string): Promise<ConsoleStoreFigures> {
  console.log(`seeding ${LARGE.toLocaleString('en-US')} links over ${WORKSPACES} workspaces on ${store}…`);
  const seedSeconds = await seed(databaseUrl);
  const snip = await startSnip(databaseUrl, '/healthz', 200);
  try {
    const cookie = await sessionCookie(snip.url, OPERATOR, PASSWORD);
    const pages: ConsolePageFigures[] = [];
    for (const [page, path] of PAGES(codeOf(Math.floor(LARGE / 2))))
      pages.push(await timePage(snip.url, cookie, page, path));
    return { store, links: LARGE, seedSeconds, pages };
  } finally {
    await snip.stop();
  }
}

function linesOf(figures: ConsoleStoreFigures): string[] {
  return [
    `${figures.store}: ${figures.links.toLocaleString('en-US')} links over ${WORKSPACES} workspaces, seeded in ${figures.seedSeconds.toFixed(1)} s; each page ${RUNS} times:`,
    ...figures.pages.map(
      (p) =>
        `  ${p.page.padEnd(16)} median ${p.medianMs.toFixed(1).padStart(6)} ms  p95 ${p.p95Ms.toFixed(1).padStart(6)} ms  ${(p.bytes / 1024).toFixed(0).padStart(4)} KiB`,
    ),
  ];
}

export async function consolePhase(
  dir: string,
  pg?: { adminUrl: string; redisUrl: string },
): Promise<ConsoleResults> {
  const figures: ConsoleStoreFigures[] = [];
  const notes: string[] = [];
  const path = join(dir, 'console.db');
  if (STORES.includes('sqlite')) {
    try {
      figures.push(await measure('sqlite', `sqlite:${path}`));
    } finally {
      removeDatabase(path);
    }
    console.log(linesOf(figures[0] as ConsoleStoreFigures).join('\n'));
  }
  if (!STORES.includes('postgres'))
    notes.push('console pages on PostgreSQL not asked (BENCH_CONSOLE_STORES)');
  else if (pg) {
    const scratch = await createScratch(pg.adminUrl, pg.redisUrl);
    try {
      const result = await measure('postgres', scratch.databaseUrl);
      figures.push(result);
      console.log(linesOf(result).join('\n'));
    } finally {
      await scratch.drop();
    }
  } else notes.push('console pages on PostgreSQL skipped: PostgreSQL or Redis not reachable');
  const goals = figures.map((f) => ({
    goal: `every console page at ${f.links.toLocaleString('en-US')} links on ${f.store}: p95 < ${GOAL_MS} ms`,
    actual: f.pages.map((p) => `${p.page} ${p.p95Ms.toFixed(1)} ms`).join('; '),
    met: f.pages.every((p) => p.p95Ms < GOAL_MS),
  }));
  return { figures, goals, lines: figures.flatMap(linesOf), notes };
}
