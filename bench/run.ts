import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAll, memoryOf, otherCoresOver, type Started, startHelper, startSnip } from './processes.ts';
import {
  createGoal,
  formatRun,
  printTable,
  type Run,
  redirectGoal,
  rssGoal,
  writeResults,
} from './report.ts';
import { codeOf, prepareStore, seedLinks } from './seed.ts';
import { CONNECTIONS, ensureWrk, runWrk, THREADS } from './wrk.ts';

/**
 * `npm run bench`: Snip's redirect and POST /create under wrk on 127.0.0.1, against a bare node:http 302,
 * at 10k and 1M seeded links. BENCH_DURATION (seconds, default 10) shortens the measured runs.
 */

const MEASURE_S = positiveInteger(process.env.BENCH_DURATION, 10);
const WARMUP_S = Math.min(3, MEASURE_S);
const SMALL = 10_000;
const LARGE = 1_000_000;
const HOT_SET = 4096;
const KEYS = 200;
const RESULTS = fileURLToPath(new URL('./results/latest.json', import.meta.url));

function positiveInteger(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9]\d*$/.test(raw))
    throw new Error(`BENCH_DURATION must be a whole number of seconds, got "${raw}"`);
  return Number(raw);
}

const dir = mkdtempSync(join(tmpdir(), 'snip-bench-'));
const databaseUrl = `sqlite:${join(dir, 'snip.db')}`;
process.on('exit', () => {
  killAll();
  rmSync(dir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping everything`);
    process.exit(130);
  });
}

/** Writes the codes of the given link indexes, one a line (8-byte records), for bench/lua/redirect.lua. */
function codesFile(name: string, indexes: Iterable<number>): string {
  const path = join(dir, name);
  writeFileSync(path, `${Array.from(indexes, codeOf).join('\n')}\n`);
  return path;
}

function sample(count: number, size: number): Set<number> {
  const picked = new Set<number>();
  while (picked.size < size) picked.add(Math.floor(Math.random() * count));
  return picked;
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  console.log(`${label}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return result;
}

const runs: Run[] = [];
let bareRun: Run | undefined;

/** Warm-up, then the measured run; redirect runs of Snip get their ratio against the latest bare run. */
async function measure(target: string, server: Started, script: string, env: (phase: string) => object) {
  const options = { url: server.url, script, serverPid: server.child.pid as number };
  await runWrk({ ...options, seconds: WARMUP_S, env: { ...env('warm') } });
  const run: Run = { target, ...(await runWrk({ ...options, seconds: MEASURE_S, env: { ...env('run') } })) };
  if (target.startsWith('bare')) bareRun = run;
  else {
    if (script === 'redirect.lua' && bareRun)
      run.ratioVsBare = Number((run.requestsPerSecond / bareRun.requestsPerSecond).toFixed(3));
    Object.assign(run, memoryOf(server.child.pid as number));
  }
  runs.push(run);
  console.log(formatRun(run));
  return run;
}

async function main(): Promise<void> {
  const wrkVersion = ensureWrk();
  const busy = await otherCoresOver(1000, [process.pid]);
  const machine = {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    kernel: release(),
    node: process.version,
    wrk: wrkVersion,
    coresBusyBeforeStart: Number(busy.toFixed(2)),
  };
  const shared = `wrk (-t${THREADS} -c${CONNECTIONS}) and the server under test share the same ${machine.cores} cores`;
  const notes = [`${shared}: the ratio vs bare is the meaningful figure, absolute req/s are a floor`];
  if (busy > 0.1)
    notes.push(`the machine was ${(busy * 100).toFixed(0)}% busy before the start: figures are low`);
  console.log(
    `Snip benchmark: node ${machine.node}, wrk ${machine.wrk}, ${machine.cores} cores (${machine.cpu})`,
  );
  console.log(`${notes.join('\n')}\nwarm-up ${WARMUP_S} s, measured ${MEASURE_S} s per target\n`);

  const bare = await startHelper('./bare-302.ts');
  const target = await startHelper('./target-server.ts');
  const store = await timed(`store: ${KEYS} accounts with keys`, () => prepareStore(databaseUrl, KEYS));
  const keysFile = join(dir, 'keys.txt');
  writeFileSync(keysFile, `${store.apiKeys.join('\n')}\n`);
  await timed('seed: 10k links', () => seedLinks(databaseUrl, store.accountId, 0, SMALL));
  const redirect = (codes: string) => () => ({ BENCH_CODES: codes });

  const hotSmall = codesFile('hot-10k.txt', sample(SMALL, HOT_SET));
  await measure('bare node:http 302 (the Node limit)', bare, 'redirect.lua', redirect(hotSmall));
  let snip = await startSnip(databaseUrl, `/${codeOf(0)}`, 302);
  const startSmall = memoryOf(snip.child.pid as number);
  const small = await measure(
    `snip redirect, 10k links, hot set ${HOT_SET}`,
    snip,
    'redirect.lua',
    redirect(hotSmall),
  );
  await snip.stop();

  await timed('seed: up to 1M links', () => seedLinks(databaseUrl, store.accountId, SMALL, LARGE));
  const hotLarge = codesFile('hot-1m.txt', sample(LARGE, HOT_SET));
  const allLarge = codesFile(
    'all-1m.txt',
    Array.from({ length: LARGE }, (_, i) => i),
  );
  await measure('bare node:http 302 (the Node limit)', bare, 'redirect.lua', redirect(hotLarge));
  snip = await startSnip(databaseUrl, `/${codeOf(LARGE - 1)}`, 302);
  const startLarge = memoryOf(snip.child.pid as number);
  const large = await measure(
    `snip redirect, 1M links, hot set ${HOT_SET}`,
    snip,
    'redirect.lua',
    redirect(hotLarge),
  );
  await measure(
    'extra: snip redirect, 1M links, uniform over all 1M',
    snip,
    'redirect.lua',
    redirect(allLarge),
  );
  const create = await measure(
    `snip POST /create, ${KEYS} keys, local target`,
    snip,
    'create.lua',
    (phase) => ({
      BENCH_KEYS: keysFile,
      BENCH_TARGET: target.url,
      BENCH_RUN: phase,
    }),
  );
  const peakRssMb = create.peakRssMb ?? 0;
  await Promise.all([snip.stop(), bare.stop(), target.stop()]);

  notes.push(
    `snip RSS just after start: ${startSmall.rssMb.toFixed(0)} MB (10k), ${startLarge.rssMb.toFixed(0)} MB (1M); ` +
      `peak (VmHWM) ${small.peakRssMb?.toFixed(0)} MB in the 10k phase, ${peakRssMb.toFixed(0)} MB in the 1M phase`,
  );
  const goals = [
    redirectGoal('10k', small),
    redirectGoal('1M', large),
    createGoal(create),
    rssGoal(peakRssMb),
  ];
  printTable(runs, goals, notes);
  writeResults(RESULTS, {
    date: new Date().toISOString(),
    machine,
    settings: {
      threads: THREADS,
      connections: CONNECTIONS,
      warmupSeconds: WARMUP_S,
      measuredSeconds: MEASURE_S,
      hotSetSize: HOT_SET,
      links: [SMALL, LARGE],
      apiKeys: KEYS,
    },
    runs,
    memoryAtStart: { links10k: startSmall, links1m: startLarge },
    goals,
    notes,
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
