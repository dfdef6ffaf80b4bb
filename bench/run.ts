import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { abPhase } from './ab-phase.ts';
import { type ApiResults, apiPhase } from './api-phase.ts';
import { type BlocklistResults, blocklistPhase } from './blocklist-phase.ts';
import { type CliResults, cliPhase, printCli, writeCli } from './cli-phase.ts';
import { type ConsoleResults, consolePhase } from './console-phase.ts';
import { conversionsPhase } from './conversions-phase.ts';
import { domainsPhase } from './domains-phase.ts';
import { healthPhase } from './health-phase.ts';
import { idleOnly } from './idle-phase.ts';
import { type LightResults, lightPhase } from './light-phase.ts';
import { ensureNginx } from './nginx.ts';
import { type PgResults, pgPhase } from './pg-phase.ts';
import { killAll, otherCoresOver, runCleanups, startHelper } from './processes.ts';
import { processesPhase } from './processes-phase.ts';
import { printTable, writeResults } from './report.ts';
import { salesPhase } from './sales-phase.ts';
import { checkReachable } from './scratch.ts';
import { type SearchQueryResults, searchQueryPhase } from './search-query.ts';
import { sampleIndexes, writeCodes } from './seed.ts';
import { Session } from './session.ts';
import {
  HOT_SET,
  KEYS,
  LARGE,
  MEASURE_S,
  ONLY,
  PG_ADMIN_URL,
  REDIS_URL,
  SMALL,
  WARMUP_S,
} from './settings.ts';
import { type SqliteResults, sqlitePhase } from './sqlite-phase.ts';
import { type StallResults, stallsPhase } from './stalls-phase.ts';
import { type StatsQueryResults, statsQueryPhase } from './stats-query.ts';
import { type WebhookResults, webhooksPhase } from './webhooks-phase.ts';
import { writerOnly } from './writer-phase.ts';
import { CONNECTIONS, ensureWrk, THREADS } from './wrk.ts';

/**
 * `npm run bench`: Snip's redirect and POST /create under wrk on 127.0.0.1, against a bare node:http 302:
 * single-process on SQLite at 10k and 1M seeded links, then on PostgreSQL + Redis with one and two
 * instances; then the management API's list and export latency and memory; then stats queries over
 * 10M click events (bench/stats-query.ts) and the operator's link search over 1M links
 * (bench/search-query.ts). Between domains and pg+redis, the redirect's blocklist lookup with 1M
 * rules (bench/blocklist-phase.ts); after pg+redis, webhook deliveries and the redirect with an
 * endpoint hearing clicks (bench/webhooks-phase.ts); after the management API, the command line's CPU
 * at start beside `node -e 0` (bench/cli-phase.ts). BENCH_DURATION (seconds, default 10) shortens the
 * measured runs; BENCH_ONLY=<a phase of bench/settings.ts>
 * runs one phase (conversions: a tracked link's click beside an untracked one, bench/conversions-phase.ts;
 * ab: links with an A/B test beside plain ones; sales: the sales through the API alone; health: 100,000
 * links checked against loopback targets, bench/health-phase.ts; console: the operator console's pages
 * at 1M links on both stores, bench/console-phase.ts, only when named)
 * (stalls: redirects during two parallel exports and bursts of new QR designs, bench/stalls-phase.ts;
 * idle: one server's CPU per thread with no traffic for BENCH_IDLE_SECONDS, bench/idle-phase.ts, alone only;
 * writer: the SQLite click writer's CPU per event on the hot set and the long tail, bench/writer-phase.ts,
 * alone only).
 */

const RESULTS = fileURLToPath(new URL('./results/latest.json', import.meta.url));
const CLEANUP_MS = 20_000;

const dir = mkdtempSync(join(tmpdir(), 'snip-bench-'));
process.on('exit', () => {
  killAll();
  rmSync(dir, { recursive: true, force: true });
});
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130); // a second Ctrl-C: no more waiting
    interrupted = true;
    console.error(`\n${signal}: stopping everything (again to skip the clean-up)`);
    killAll();
    void runCleanups(CLEANUP_MS).finally(() => process.exit(130));
  });
}

/** The stats or search phase alone: no wrk, no servers; PostgreSQL too when it can be reached. */
async function queriesOnly(phase: 'stats' | 'search'): Promise<void> {
  const reachable = await checkReachable(PG_ADMIN_URL, REDIS_URL).then(
    () => true,
    () => false,
  );
  const pg = reachable ? { adminUrl: PG_ADMIN_URL, redisUrl: REDIS_URL } : undefined;
  console.log(phase === 'stats' ? 'stats query phase' : 'link search phase');
  const results = phase === 'stats' ? await statsQueryPhase(dir, pg) : await searchQueryPhase(dir, pg);
  printQueries(phase, results);
  // Its own file: a run of one of these leaves the full run's latest.json as it was.
  writeResults(RESULTS.replace(/latest\.json$/, `${phase}-latest.json`), {
    date: new Date().toISOString(),
    [phase === 'stats' ? 'statsQueries' : 'linkSearch']: results.figures,
    ...('list' in results ? { linkList: results.list } : {}),
    goals: results.goals,
    notes: results.notes,
  });
}

function printQueries(phase: 'stats' | 'search', results: StatsQueryResults | SearchQueryResults): void {
  const title =
    phase === 'stats'
      ? 'stats queries (bench/stats-query.ts)'
      : "the link list (bench/list-query.ts) and the operator's link search (bench/search-query.ts)";
  console.log(`\n${title}:\n${results.lines.join('\n')}`);
  for (const goal of results.goals)
    console.log(`${goal.met ? 'met   ' : 'MISSED'}  ${goal.goal}: ${goal.actual}`);
  for (const note of results.notes) console.log(`note: ${note}`);
}

/** The console phase alone: no wrk; PostgreSQL too when it can be reached; its own results file. */
async function consoleOnly(): Promise<void> {
  const reachable = await checkReachable(PG_ADMIN_URL, REDIS_URL).then(
    () => true,
    () => false,
  );
  console.log('console phase');
  const results = await consolePhase(
    dir,
    reachable ? { adminUrl: PG_ADMIN_URL, redisUrl: REDIS_URL } : undefined,
  );
  printConsole(results);
  writeResults(RESULTS.replace(/latest\.json$/, 'console-latest.json'), {
    date: new Date().toISOString(),
    console: results.figures,
    goals: results.goals,
    notes: results.notes,
  });
}

function printConsole(results: ConsoleResults): void {
  console.log(`\nthe operator console's pages (bench/console-phase.ts):\n${results.lines.join('\n')}`);
  for (const goal of results.goals)
    console.log(`${goal.met ? 'met   ' : 'MISSED'}  ${goal.goal}: ${goal.actual}`);
  for (const note of results.notes) console.log(`note: ${note}`);
}

/** The stalls phase alone: no wrk; its own results file. */
async function stallsOnly(): Promise<void> {
  console.log('stalls phase');
  const stalls = await stallsPhase(dir);
  printStalls(stalls);
  writeResults(RESULTS.replace(/latest\.json$/, 'stalls-latest.json'), {
    date: new Date().toISOString(),
    stalls: { idle: stalls.idle, exports: stalls.exports, qr: stalls.qr, underWrk: stalls.underWrk },
    goals: stalls.goals,
    notes: [],
  });
}

function printStalls(stalls: StallResults): void {
  console.log(`\nredirects beside exports and QR codes (bench/stalls-phase.ts):\n${stalls.lines.join('\n')}`);
  for (const goal of stalls.goals)
    console.log(`${goal.met ? 'met   ' : 'MISSED'}  ${goal.goal}: ${goal.actual}`);
}

/** The cli phase alone: no wrk, no servers. */
async function cliOnly(): Promise<void> {
  console.log(`cli phase: node ${process.version}, ${availableParallelism()} cores`);
  const cli = await cliPhase(dir);
  printCli(cli);
  writeCli(cli);
}

/** The sales through the API alone (bench/sales-phase.ts): no wrk, its own target server. */
async function salesOnly(): Promise<void> {
  console.log('sales phase');
  const target = await startHelper('./target-server.ts');
  try {
    console.log((await salesPhase(dir, target.url)).notes.join('\n'));
  } finally {
    await target.stop();
  }
}

async function main(): Promise<void> {
  if (ONLY === 'idle') return idleOnly(dir, RESULTS.replace(/latest\.json$/, 'idle-latest.json'));
  if (ONLY === 'writer') return writerOnly(dir, RESULTS.replace(/latest\.json$/, 'writer-latest.json'));
  if (ONLY === 'stats' || ONLY === 'search') return queriesOnly(ONLY);
  if (ONLY === 'sales') return salesOnly();
  if (ONLY === 'cli') return cliOnly();
  if (ONLY === 'stalls') return stallsOnly();
  if (ONLY === 'console') return consoleOnly();
  const wrkVersion = ensureWrk();
  const nginxVersion = ONLY === undefined || ONLY === 'sqlite' || ONLY === 'light' ? ensureNginx() : null;
  if (ONLY === undefined || ONLY === 'pg' || ONLY === 'processes')
    await checkReachable(PG_ADMIN_URL, REDIS_URL);
  const busy = await otherCoresOver(1000, [process.pid]);
  const machine = {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    kernel: release(),
    node: process.version,
    wrk: wrkVersion,
    nginx: nginxVersion,
    coresBusyBeforeStart: Number(busy.toFixed(2)),
  };
  const shared = `wrk (-t${THREADS} -c${CONNECTIONS}) and the server under test share the same ${machine.cores} cores`;
  const notes = [`${shared}: the ratio vs bare is the meaningful figure, absolute req/s are a floor`];
  if (busy > 0.1)
    notes.push(`the machine was ${(busy * 100).toFixed(0)}% busy before the start: figures are low`);
  console.log(
    `Snip benchmark: node ${machine.node}, wrk ${machine.wrk}, ${machine.cores} cores (${machine.cpu})`,
  );
  console.log(`${notes.join('\n')}\nwarm-up ${WARMUP_S} s, measured ${MEASURE_S} s per target`);
  const all =
    'sqlite, light, domains, conversions, ab, health, blocklist, pg+redis, processes, webhooks, api, stalls, cli, stats, search';
  console.log(`phases: ${ONLY === undefined ? all : ONLY} (BENCH_ONLY)\n`);

  const session = new Session(WARMUP_S, MEASURE_S);
  const bare = await startHelper('./bare-302.ts');
  const target = await startHelper('./target-server.ts');
  const hotSmall = writeCodes(join(dir, 'hot-10k.txt'), sampleIndexes(SMALL, HOT_SET));
  const bench = { session, dir, bare, target, hotSmall };

  let sqlite: SqliteResults | undefined;
  let pg: PgResults | undefined;
  let api: ApiResults | undefined;
  if (ONLY === undefined || ONLY === 'sqlite') {
    console.log('sqlite phase');
    sqlite = await sqlitePhase(bench);
  }
  let light: LightResults | undefined;
  if (ONLY === undefined || ONLY === 'light') {
    console.log('\nlight phase: start, idle memory, the long tail, beside bare node and nginx');
    light = await lightPhase(bench);
  }
  let domainNotes: string[] = [];
  if (ONLY === undefined || ONLY === 'domains') {
    console.log('\ndomains phase');
    domainNotes = await domainsPhase(bench);
  }
  let conversionNotes: string[] = [];
  if (ONLY === undefined || ONLY === 'conversions') {
    console.log('\nconversions phase');
    conversionNotes = await conversionsPhase(bench);
    conversionNotes.push(...(await salesPhase(dir, target.url)).notes);
  }
  let abNotes: string[] = [];
  if (ONLY === undefined || ONLY === 'ab') {
    console.log('\nA/B test phase');
    abNotes = await abPhase(bench);
  }
  let healthNotes: string[] = [];
  if (ONLY === undefined || ONLY === 'health') {
    console.log('\nlink health phase');
    healthNotes = await healthPhase(bench);
  }
  let blocklist: BlocklistResults | undefined;
  if (ONLY === undefined || ONLY === 'blocklist') {
    console.log('\nblocklist phase');
    blocklist = await blocklistPhase(bench);
  }
  if (ONLY === undefined || ONLY === 'pg') {
    console.log('\npg+redis phase');
    pg = await pgPhase(bench, sqlite);
  }
  let processNotes: string[] = [];
  if (ONLY === undefined || ONLY === 'processes') {
    console.log('\nprocesses phase (snip serve --processes)');
    processNotes = await processesPhase(bench);
  }
  let webhooks: WebhookResults | undefined;
  if (ONLY === undefined || ONLY === 'webhooks') {
    console.log('\nwebhooks phase');
    webhooks = await webhooksPhase(bench);
  }
  await Promise.all([bare.stop(), target.stop()]);
  if (ONLY === undefined || ONLY === 'api') {
    console.log('\nmanagement API phase');
    api = await apiPhase(dir);
  }
  let stalls: StallResults | undefined;
  if (ONLY === undefined) {
    console.log('\nstalls phase');
    stalls = await stallsPhase(dir);
  }
  let cli: CliResults | undefined;
  if (ONLY === undefined) {
    console.log('\ncli phase');
    // A command line that fails (or is mid-change) costs a note, not the figures of the other phases.
    cli = await cliPhase(dir).catch((error: unknown) => {
      notes.push(`cli phase failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    });
  }
  let stats: StatsQueryResults | undefined;
  let search: SearchQueryResults | undefined;
  if (ONLY === undefined) {
    const pgUrls = { adminUrl: PG_ADMIN_URL, redisUrl: REDIS_URL };
    console.log('\nstats query phase');
    stats = await statsQueryPhase(dir, pgUrls);
    console.log('\nlink search phase');
    search = await searchQueryPhase(dir, pgUrls);
  }

  notes.push(
    ...(sqlite?.notes ?? []),
    ...domainNotes,
    ...conversionNotes,
    ...abNotes,
    ...healthNotes,
    ...(blocklist?.notes ?? []),
    ...(pg?.notes ?? []),
    ...processNotes,
    ...(webhooks?.notes ?? []),
  );
  const spread = session.bareSpreadNote();
  if (spread) notes.push(spread);
  const goals = [...(sqlite?.goals ?? []), ...(light?.goals ?? []), ...(blocklist?.goals ?? [])];
  printTable(session.runs, goals, notes);
  if (light)
    console.log(`\nstart, idle memory and the long tail (bench/light-phase.ts):\n${light.lines.join('\n')}`);
  if (api)
    console.log(`\nmanagement API (SQLite, one process, sequential requests):\n${api.lines.join('\n')}`);
  if (stalls) printStalls(stalls);
  if (cli) printCli(cli);
  if (stats) printQueries('stats', stats);
  if (search) printQueries('search', search);
  // A light run alone leaves the full run's latest.json as it was.
  writeResults(ONLY === 'light' ? RESULTS.replace(/latest\.json$/, 'light-latest.json') : RESULTS, {
    date: new Date().toISOString(),
    machine,
    settings: {
      only: ONLY ?? null,
      threads: THREADS,
      connections: CONNECTIONS,
      warmupSeconds: WARMUP_S,
      measuredSeconds: MEASURE_S,
      hotSetSize: HOT_SET,
      links: ONLY === undefined || ONLY === 'sqlite' ? [SMALL, LARGE] : [],
      apiKeys: KEYS,
      ...(pg ? { pgRedis: { links: SMALL, instances: [1, 2], database: pg.database } } : {}),
    },
    runs: session.runs,
    ...(api ? { managementApi: { list: api.list, export: api.export } } : {}),
    ...(stalls
      ? { stalls: { idle: stalls.idle, exports: stalls.exports, qr: stalls.qr, underWrk: stalls.underWrk } }
      : {}),
    ...(sqlite ? { memoryAtStart: sqlite.memoryAtStart } : {}),
    ...(light ? { light: { starts: light.starts, lines: light.lines } } : {}),
    ...(blocklist ? { blocklist: blocklist.figures } : {}),
    ...(webhooks ? { webhooks: webhooks.figures } : {}),
    ...(stats ? { statsQueries: stats.figures } : {}),
    ...(search ? { linkSearch: search.figures, linkList: search.list } : {}),
    ...(cli ? { cli: cli.figures } : {}),
    goals: [...goals, ...(stalls?.goals ?? []), ...(search?.goals ?? []), ...(cli?.goals ?? [])],
    notes: [...notes, ...(search?.notes ?? []), ...(cli?.notes ?? [])],
  });
  if (cli) writeCli(cli);
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    if (!interrupted) console.error(error);
    await runCleanups(CLEANUP_MS);
    process.exit(interrupted ? 130 : 1);
  },
);
