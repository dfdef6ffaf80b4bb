import { join } from 'node:path';
import { openStore } from '../src/adapters/open-store.ts';
import { accountOperations } from '../src/features/workspaces/cli/account-operations.ts';
import { memoryOf, startSnip } from './processes.ts';
import type { Goal } from './report.ts';
import { codeOf, sampleIndexes, seedLinks, writeCodes } from './seed.ts';
import { timed } from './session.ts';
import { CONNECTIONS, runWrk, THREADS, type WrkResult } from './wrk.ts';

/**
 * Redirects while the server does heavy work beside them (SQLite, one process), measured two ways:
 * one request at a time to a known code (the slowest of them), and under `wrk -t2 -c64` over
 * 4,096 codes (its p99). Each first on a server doing nothing else, then during two parallel CSV
 * exports of an account of 70,000 links, then during bursts of 40 QR codes of designs not drawn
 * before (the wrk runs repeat the work until they end). The goal: under either load each figure
 * stays under 300 ms or 4 × its own baseline, whichever is larger.
 */

const PLAN = 'bench-stalls';
const LINKS = 70_000;
const EXPORTS = 2;
const QR_BURST = 40;
const QR_BURSTS = 3;
const IDLE_REDIRECTS = 300;
const FLOOR_MS = 300;
const BASELINE_FACTOR = 4;
const WRK_SECONDS = 8;
const WRK_LOAD = { threads: THREADS, connections: CONNECTIONS };

export interface RedirectFigures {
  redirects: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

type WrkFigures = Pick<
  WrkResult,
  'requestsPerSecond' | 'p50Ms' | 'p99Ms' | 'maxMs' | 'errors' | 'otherCores'
>;

export interface StallResults {
  idle: RedirectFigures;
  exports: RedirectFigures & { seconds: number; megabytes: number; rssPeakMb: number };
  qr: RedirectFigures & { seconds: number; statuses: Record<string, number> };
  underWrk: { idle: WrkFigures; exports: WrkFigures; qr: WrkFigures };
  goals: Goal[];
  lines: string[];
}

function figures(times: number[]): RedirectFigures {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
  return { redirects: sorted.length, p50Ms: at(50), p99Ms: at(99), maxMs: sorted.at(-1) ?? 0 };
}

async function redirectOnce(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { redirect: 'manual' });
  await response.arrayBuffer();
  if (response.status !== 302) throw new Error(`the redirect answered ${response.status}`);
  return performance.now() - started;
}

/** Redirects one after the other until `work` settles; their times. */
async function redirectsDuring(url: string, work: Promise<unknown>): Promise<number[]> {
  let done = false;
  const finished = work.finally(() => {
    done = true;
  });
  const times: number[] = [];
  while (!done) times.push(await redirectOnce(url));
  await finished;
  return times;
}

async function seed(databaseUrl: string): Promise<{ key: string; workspaceId: number }> {
  const store = await openStore(databaseUrl, { prepare: true });
  try {
    const ops = accountOperations(store);
    await ops.savePlan(PLAN, { apiAccess: true, urlQuota: 1_000_000_000, rateLimitPerHour: 1_000_000_000 });
    const issued = await ops.createAccount('stalls@bench.example', PLAN);
    return { key: issued.apiKey, workspaceId: issued.account.workspace.id };
  } finally {
    await store.close();
  }
}

async function exportOnce(url: string, key: string): Promise<number> {
  const response = await fetch(`${url}/api/v1/links.csv`, { headers: { 'x-api-key': key } });
  if (response.status !== 200 || !response.body) throw new Error(`the export answered ${response.status}`);
  let bytes = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.byteLength;
  return bytes;
}

let designs = 0;
/** A colour not asked for before: each request a design of its own, so none is in the image cache. */
function newColour(): string {
  designs++;
  return (designs * 2654435761).toString(16).slice(-4).padStart(4, '0');
}

async function qrBurst(url: string, statuses: Record<string, number>): Promise<void> {
  await Promise.all(
    Array.from({ length: QR_BURST }, async (_, i) => {
      const code = codeOf(i);
      const response = await fetch(`${url}/qrcode/${code}.png?size=1024&ecc=H&fg=%2300${newColour()}`);
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }),
  );
}

/** Runs `work` again and again while wrk loads the redirect; wrk's figures. */
async function wrkDuring(
  url: string,
  codes: string,
  pid: number,
  work: (() => Promise<unknown>) | undefined,
): Promise<WrkFigures> {
  let running = true;
  const loop = (async () => {
    while (running && work) await work();
  })();
  try {
    const result = await runWrk({
      targets: [{ url, env: { BENCH_CODES: codes } }],
      script: 'redirect.lua',
      seconds: WRK_SECONDS,
      ourPids: [pid],
      load: WRK_LOAD,
    });
    const { requestsPerSecond, p50Ms, p99Ms, maxMs, errors, otherCores } = result;
    return { requestsPerSecond, p50Ms, p99Ms, maxMs, errors, otherCores };
  } finally {
    running = false;
    await loop;
  }
}

const describeWrk = (f: WrkFigures) =>
  `${f.requestsPerSecond.toLocaleString('en-US')} req/s, p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms, max ${f.maxMs.toFixed(1)} ms${f.errors ? `, ${f.errors} errors` : ''}` +
  `${f.otherCores > 0.1 ? ` (other processes used ${f.otherCores} cores: disturbed)` : ''}`;

const describe = (f: RedirectFigures) =>
  `p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms, max ${f.maxMs.toFixed(1)} ms (${f.redirects} redirects)`;

export async function stallsPhase(dir: string): Promise<StallResults> {
  const databaseUrl = `sqlite:${join(dir, 'stalls.db')}`;
  const { key, workspaceId } = await seed(databaseUrl);
  await timed(`seed: ${LINKS.toLocaleString('en-US')} links`, () =>
    seedLinks(databaseUrl, workspaceId, 0, LINKS),
  );
  const snip = await startSnip(databaseUrl, '/healthz', 200);
  const pid = snip.child.pid as number;
  const redirect = `${snip.url}/${codeOf(LINKS - 1)}`;
  try {
    for (let i = 0; i < 50; i++) await redirectOnce(redirect);
    const idleTimes: number[] = [];
    for (let i = 0; i < IDLE_REDIRECTS; i++) idleTimes.push(await redirectOnce(redirect));
    const idle = figures(idleTimes);

    let rssPeakMb = memoryOf(pid).rssMb;
    const sampler = setInterval(() => {
      rssPeakMb = Math.max(rssPeakMb, memoryOf(pid).rssMb);
    }, 20);
    let exportStarted = performance.now();
    let exportBytes = 0;
    const exportTimes = await redirectsDuring(
      redirect,
      (async () => {
        exportStarted = performance.now();
        const sizes = await Promise.all(Array.from({ length: EXPORTS }, () => exportOnce(snip.url, key)));
        exportBytes = sizes.reduce((sum, n) => sum + n, 0);
      })(),
    ).finally(() => clearInterval(sampler));
    const exportSeconds = (performance.now() - exportStarted) / 1000;

    const statuses: Record<string, number> = {};
    const qrTimes: number[] = [];
    const qrStarted = performance.now();
    for (let burst = 0; burst < QR_BURSTS; burst++) {
      qrTimes.push(...(await redirectsDuring(redirect, qrBurst(snip.url, statuses))));
    }
    const qrSeconds = (performance.now() - qrStarted) / 1000;

    const codes = writeCodes(join(dir, 'stalls-codes.txt'), sampleIndexes(LINKS, 4096));
    const exportPair = () => Promise.all(Array.from({ length: EXPORTS }, () => exportOnce(snip.url, key)));
    const underWrk = {
      idle: await wrkDuring(snip.url, codes, pid, undefined),
      exports: await wrkDuring(snip.url, codes, pid, exportPair),
      qr: await wrkDuring(snip.url, codes, pid, () => qrBurst(snip.url, statuses)),
    };

    const exports = {
      ...figures(exportTimes),
      seconds: exportSeconds,
      megabytes: exportBytes / 1e6,
      rssPeakMb,
    };
    const qr = { ...figures(qrTimes), seconds: qrSeconds, statuses };
    const bound = Math.max(FLOOR_MS, BASELINE_FACTOR * idle.maxMs);
    const wrkBound = Math.max(FLOOR_MS, BASELINE_FACTOR * underWrk.idle.p99Ms);
    const goal = (what: string, f: RedirectFigures): Goal => ({
      goal: `slowest of sequential redirects during ${what} < ${bound.toFixed(0)} ms (${FLOOR_MS} ms or ${BASELINE_FACTOR} × idle)`,
      actual: `${f.maxMs.toFixed(1)} ms`,
      met: f.maxMs < bound,
    });
    const wrkGoal = (what: string, f: WrkFigures): Goal => ({
      goal: `redirect p99 under wrk -t2 -c64 during ${what} < ${wrkBound.toFixed(0)} ms (${FLOOR_MS} ms or ${BASELINE_FACTOR} × its p99 alone)`,
      actual: `${f.p99Ms.toFixed(1)} ms`,
      met: f.p99Ms < wrkBound,
    });
    const exporting = `${EXPORTS} parallel exports of ${LINKS.toLocaleString('en-US')} links`;
    const drawing = `bursts of ${QR_BURST} new QR designs`;
    const goals = [
      goal(exporting, exports),
      goal(drawing, qr),
      wrkGoal(exporting, underWrk.exports),
      wrkGoal(drawing, underWrk.qr),
    ];
    const lines = [
      `redirect, idle: ${describe(idle)}`,
      `redirect during ${EXPORTS} parallel GET /api/v1/links.csv of ${LINKS.toLocaleString('en-US')} links: ${describe(exports)}; ` +
        `exports ${exports.megabytes.toFixed(1)} MB in ${exports.seconds.toFixed(2)} s, server RSS at most ${rssPeakMb.toFixed(0)} MB`,
      `redirect during ${QR_BURSTS} bursts of ${QR_BURST} new QR designs (1024 px PNG, ecc H): ${describe(qr)}; ` +
        `${qr.seconds.toFixed(2)} s, answers ${JSON.stringify(statuses)}`,
      `redirect under wrk -t2 -c64, alone: ${describeWrk(underWrk.idle)}`,
      `redirect under wrk -t2 -c64, exports of ${LINKS.toLocaleString('en-US')} links two at a time throughout: ${describeWrk(underWrk.exports)}`,
      `redirect under wrk -t2 -c64, bursts of ${QR_BURST} new QR designs throughout: ${describeWrk(underWrk.qr)}`,
    ];
    return { idle, exports, qr, underWrk, goals, lines };
  } finally {
    await snip.stop();
  }
}
