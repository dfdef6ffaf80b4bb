import { join } from 'node:path';
import { openStore } from '../src/adapters/open-store.ts';
import { accountOperations } from '../src/features/workspaces/cli/account-operations.ts';
import { memoryOf, processTicks, startSnip } from './processes.ts';
import { seedLinks } from './seed.ts';
import { timed } from './session.ts';

/**
 * The management API on SQLite, one process, requests one at a time (latency, not throughput):
 * GET /api/v1/links?limit=50 for an account of 100 links against one of 100,000 (first pages, and
 * pages deep in the list by cursor) — keyset pagination means the large account costs the same —
 * and GET /api/v1/links.csv of 10,000, 100,000 and 300,000 links from a fresh server each, its time
 * and the server's resident memory while streaming, also with the V8 heap capped.
 */

const PLAN = 'bench-api';
const SIZES = { small: 100, mid: 10_000, big: 100_000, huge: 300_000 } as const;
const REQUESTS = 400;
const WARM = 50;
const TICK_MS = 10;
/**
 * Streamed, an export needs the same memory for any count: its peak settles once SQLite's page cache
 * (16 MB) is full and V8 has sized its young generation to the rate of allocation, whether 100,000
 * or 300,000 links follow; a server with the V8 heap capped this low (old generation 64 MB, 1 MB
 * semi-spaces) exports every size too.
 */
const HEAP_CAP_MB = 64;

export interface LatencyFigures {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Server CPU time per request, from /proc. */
  cpuUsPerRequest: number;
}

export interface ExportFigures {
  links: number;
  /** The V8 heap cap the server ran with (MB), if any. */
  heapCapMb: number | null;
  rows: number;
  megabytes: number;
  seconds: number;
  rssBeforeMb: number;
  /** Highest VmRSS sampled every 20 ms while the export streamed. */
  rssPeakDuringMb: number;
}

export interface ApiResults {
  list: Record<string, LatencyFigures>;
  export: ExportFigures[];
  lines: string[];
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

async function seedAccounts(databaseUrl: string): Promise<Record<keyof typeof SIZES, string>> {
  const store = await openStore(databaseUrl, { prepare: true });
  const keys = {} as Record<keyof typeof SIZES, string>;
  const ids = {} as Record<keyof typeof SIZES, number>;
  try {
    const ops = accountOperations(store);
    await ops.savePlan(PLAN, { apiAccess: true, urlQuota: 1_000_000_000, rateLimitPerHour: 1_000_000_000 });
    for (const name of Object.keys(SIZES) as Array<keyof typeof SIZES>) {
      const issued = await ops.createAccount(`${name}@bench.example`, PLAN);
      keys[name] = issued.apiKey;
      ids[name] = issued.account.workspace.id;
    }
  } finally {
    await store.close();
  }
  let from = 0;
  for (const name of Object.keys(SIZES) as Array<keyof typeof SIZES>) {
    await seedLinks(databaseUrl, ids[name], from, from + SIZES[name]);
    from += SIZES[name];
  }
  return keys;
}

/** `REQUESTS` requests one after the other, each URL from `next` (which may follow the last answer). */
async function latency(
  pid: number,
  key: string,
  next: (previous: { next_cursor: string | null } | undefined) => string,
): Promise<LatencyFigures> {
  const times: number[] = [];
  let previous: { next_cursor: string | null } | undefined;
  let ticksBefore = 0;
  for (let i = 0; i < WARM + REQUESTS; i++) {
    if (i === WARM) ticksBefore = processTicks(pid);
    const started = performance.now();
    const response = await fetch(next(previous), { headers: { 'x-api-key': key } });
    if (response.status !== 200) throw new Error(`list answered ${response.status}`);
    previous = (await response.json()) as { next_cursor: string | null };
    if (i >= WARM) times.push(performance.now() - started);
  }
  const cpuMs = (processTicks(pid) - ticksBefore) * TICK_MS;
  times.sort((a, b) => a - b);
  return {
    requests: REQUESTS,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    cpuUsPerRequest: (cpuMs * 1000) / REQUESTS,
  };
}

/** One export from a fresh server, so each starts from the same memory; `heapCapMb` caps the V8 heap. */
async function exportAll(
  databaseUrl: string,
  key: string,
  links: number,
  heapCapMb: number | null,
): Promise<ExportFigures> {
  // The young generation capped too: it grows with the rate of allocation, up to 3 × 16 MB by default.
  const env: Record<string, string> = heapCapMb
    ? { NODE_OPTIONS: `--max-old-space-size=${heapCapMb} --max-semi-space-size=1` }
    : {};
  const snip = await startSnip(databaseUrl, '/healthz', 200, env);
  const pid = snip.child.pid as number;
  const url = snip.url;
  const rssBeforeMb = memoryOf(pid).rssMb;
  let rssPeakDuringMb = rssBeforeMb;
  const sampler = setInterval(() => {
    rssPeakDuringMb = Math.max(rssPeakDuringMb, memoryOf(pid).rssMb);
  }, 20);
  const started = performance.now();
  try {
    const response = await fetch(`${url}/api/v1/links.csv`, { headers: { 'x-api-key': key } });
    if (response.status !== 200 || !response.body) throw new Error(`export answered ${response.status}`);
    let bytes = 0;
    let rows = 0;
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      bytes += read.value.byteLength;
      for (const byte of read.value) if (byte === 10) rows++;
    }
    return {
      links,
      heapCapMb,
      rows: rows - 1,
      megabytes: bytes / 1e6,
      seconds: (performance.now() - started) / 1000,
      rssBeforeMb,
      rssPeakDuringMb,
    };
  } finally {
    clearInterval(sampler);
    await snip.stop();
  }
}

async function listLatencies(databaseUrl: string, keys: Record<keyof typeof SIZES, string>) {
  const snip = await startSnip(databaseUrl, '/healthz', 200);
  const pid = snip.child.pid as number;
  try {
    const first = () => `${snip.url}/api/v1/links?limit=50`;
    const deep = (previous: { next_cursor: string | null } | undefined) =>
      `${snip.url}/api/v1/links?limit=50${previous?.next_cursor ? `&cursor=${previous.next_cursor}` : ''}`;
    return {
      'first page, account of 100': await latency(pid, keys.small, first),
      'first page, account of 100,000': await latency(pid, keys.big, first),
      'pages 51-450 by cursor, account of 100,000': await latency(pid, keys.big, deep),
    };
  } finally {
    await snip.stop();
  }
}

export async function apiPhase(dir: string): Promise<ApiResults> {
  const databaseUrl = `sqlite:${join(dir, 'api.db')}`;
  const keys = await timed('seed: accounts of 100, 10k, 100k and 300k links', () =>
    seedAccounts(databaseUrl),
  );
  const list = await listLatencies(databaseUrl, keys);
  const exports = [
    await exportAll(databaseUrl, keys.mid, SIZES.mid, null),
    await exportAll(databaseUrl, keys.big, SIZES.big, null),
    await exportAll(databaseUrl, keys.huge, SIZES.huge, null),
    await exportAll(databaseUrl, keys.big, SIZES.big, HEAP_CAP_MB),
    await exportAll(databaseUrl, keys.huge, SIZES.huge, HEAP_CAP_MB),
  ];
  const lines = [
    ...Object.entries(list).map(
      ([what, f]) =>
        `GET /api/v1/links?limit=50, ${what}: p50 ${f.p50Ms.toFixed(2)} ms, p99 ${f.p99Ms.toFixed(2)} ms, ` +
        `server CPU ${f.cpuUsPerRequest.toFixed(0)} µs/request (${f.requests} sequential requests)`,
    ),
    ...exports.map(
      (e) =>
        `GET /api/v1/links.csv, ${e.links.toLocaleString('en-US')} links` +
        `${e.heapCapMb ? `, V8 heap capped (${e.heapCapMb} MB old, 1 MB semi-spaces)` : ''}: ${e.rows.toLocaleString('en-US')} rows, ` +
        `${e.megabytes.toFixed(1)} MB in ${e.seconds.toFixed(2)} s; server RSS ${e.rssBeforeMb.toFixed(0)} MB before, ` +
        `at most ${e.rssPeakDuringMb.toFixed(0)} MB while streaming`,
    ),
  ];
  return { list, export: exports, lines };
}
