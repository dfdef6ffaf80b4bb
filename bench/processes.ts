import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';

/** Every process the benchmark starts, so that all of them are stopped however the run ends. */
const children = new Set<ChildProcess>();

export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Last resort on exit, failure or Ctrl-C: synchronous, so it also works from an 'exit' handler. */
export function killAll(): void {
  for (const child of children) child.kill('SIGKILL');
}

/** Asynchronous clean-ups (a scratch database, Redis keys) that must also run on failure or Ctrl-C. */
const cleanups = new Set<() => Promise<void>>();

/**
 * Registers a clean-up and returns the function that runs it: at most once, however often it is called,
 * and it stays pending for runCleanups() while it runs.
 */
export function onCleanup(work: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  const run = (): Promise<void> => {
    running ??= work().finally(() => cleanups.delete(run));
    return running;
  };
  cleanups.add(run);
  return run;
}

/** Runs (or waits for) every pending clean-up, giving up after `ms`; failures are printed, not thrown. */
export async function runCleanups(ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.error(`clean-up still running after ${ms / 1000} s: giving up`);
      resolve();
    }, ms);
  });
  const all = Promise.allSettled([...cleanups].map((cleanup) => cleanup())).then((results) => {
    for (const result of results)
      if (result.status === 'rejected') console.error('clean-up failed:', result.reason);
  });
  await Promise.race([all, deadline]);
  clearTimeout(timer);
}

export interface Started {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 15_000;

/** SIGTERM, so that Snip shuts down as in production; SIGKILL if it has not exited after the grace time. */
export async function stopper(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/** Runs a bench/ server script with this Node binary and waits for the `listening <port>` line it prints. */
export async function startHelper(script: string): Promise<Started> {
  const child = track(
    spawn(process.execPath, [new URL(script, import.meta.url).pathname], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited early with ${code}`)));
    lines.on('line', (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
  });
  return { child, url: `http://127.0.0.1:${port}`, stop: () => stopper(child) };
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  return port;
}

/** The checkout whose server is measured: this one, or BENCH_SNIP_DIR's (to compare two revisions). */
export const SNIP_DIR = process.env.BENCH_SNIP_DIR?.trim() || new URL('..', import.meta.url).pathname;

/**
 * Runs `snip serve` the way `npm start` does, at LOG_LEVEL=warn (no listening line to read), and waits
 * until `readyPath` answers with `readyStatus` (at most `readyMs`). `env` adds to the environment
 * (REDIS_URL, REDIS_PREFIX…). `dir` is the checkout run (BENCH_SNIP_DIR's or this one by default).
 */
export async function startSnip(
  databaseUrl: string,
  readyPath: string,
  readyStatus: number,
  env: Record<string, string> = {},
  readyMs = 30_000,
  dir = SNIP_DIR,
): Promise<Started> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = track(
    // The flags of `npm start` (the checkout's package.json), so the bench measures what operators run.
    spawn(process.execPath, [...startFlags(dir), 'bin/snip.js', 'serve'], {
      cwd: dir,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        BASE_URL: url,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
        ALLOW_PRIVATE_TARGETS: 'true',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    }),
  );
  await waitForStatus(child, `${url}${readyPath}`, readyStatus, readyMs);
  return { child, url, stop: () => stopper(child) };
}

/** The series of human clicks redirected (counted), for metricOf. */
export const HUMAN_REDIRECTS = 'snip_redirects_total{kind="human"}';

/**
 * Figures of a server's /metrics, read once: for each of `series` (a name, or a name with its labels
 * as printed, e.g. `snip_redirects_total{kind="human"}`) its value, or the sum over every label set
 * of a bare name that has them; 0 when no line matches (a counter not yet counted).
 */
export async function metricsOf(url: string, series: readonly string[]): Promise<number[]> {
  const text = await fetch(`${url}/metrics`).then((response) => response.text());
  const sums = series.map(() => 0);
  for (const line of text.split('\n')) {
    const space = line.lastIndexOf(' ');
    const key = line.slice(0, space);
    series.forEach((name, i) => {
      if (key === name || (!name.includes('{') && key.startsWith(`${name}{`))) {
        sums[i] = (sums[i] as number) + Number(line.slice(space + 1));
      }
    });
  }
  return sums;
}

/** One figure of a server's /metrics (metricsOf). */
export const metricOf = async (url: string, series: string): Promise<number> =>
  (await metricsOf(url, [series]))[0] as number;

/** The Node flags of a checkout's `npm start` (its package.json): what comes between `node` and `bin/snip.js`. */
export function startFlags(dir: string): string[] {
  const { scripts } = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as {
    scripts: { start: string };
  };
  const words = scripts.start.split(/\s+/);
  return words.slice(words.indexOf('node') + 1, words.indexOf('bin/snip.js'));
}

/** Waits up to `ms` (30 s) until `url` answers `status` (no redirect followed); throws if the child exits. */
export async function waitForStatus(
  child: ChildProcess,
  url: string,
  expected: number,
  ms = 30_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${child.spawnfile} exited early with ${child.exitCode}`);
    const status = await fetch(url, { redirect: 'manual' }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === expected) return;
    if (status !== 0 || Date.now() > deadline) throw new Error(`${url} answered ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A process and its descendants (the workers of `snip serve --processes N`), from /proc's lists of
 * children; a process gone meanwhile is left out.
 */
export function processTree(pid: number): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    const parent = tree[i] as number;
    try {
      const text = readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8').trim();
      if (text) tree.push(...text.split(/\s+/).map(Number));
    } catch {
      // Gone, or a kernel without the children lists: the process alone.
    }
  }
  return tree;
}

/** Resident memory of a live process and its descendants in MB: now (VmRSS) and the sum of their peaks (VmHWM). */
export function memoryOf(pid: number): { rssMb: number; peakRssMb: number } {
  let rssMb = 0;
  let peakRssMb = 0;
  for (const one of processTree(pid)) {
    let status: string;
    try {
      status = readFileSync(`/proc/${one}/status`, 'utf8');
    } catch {
      continue;
    }
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    rssMb += kb('VmRSS') / 1024;
    peakRssMb += kb('VmHWM') / 1024;
  }
  return { rssMb, peakRssMb };
}

/** CPU ticks (1/100 s) a process has spent so far, all its threads, user and system. */
export function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return 0; // already gone
  }
}

/**
 * CPU ticks (utime + stime) of one thread of a process so far: its main thread by default (whose
 * thread id is the pid), the thread that serves requests; 0 once gone.
 */
export function threadTicks(pid: number, tid = pid): number {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

export interface CpuSample {
  /** Ticks of the whole machine: busy in processes (or stolen by the hypervisor) and all. */
  busy: number;
  total: number;
  /** Ticks spent by the processes sampled. */
  ours: number;
}

export function sampleCpu(pids: readonly number[]): CpuSample {
  const fields = (/^cpu\s+(.*)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1] ?? '')
    .split(/\s+/)
    .map(Number);
  const total = fields.slice(0, 8).reduce((sum, n) => sum + n, 0); // guest time is already in user
  // user + nice + system + steal. Not irq/softirq: loopback packets are processed there, which is the
  // benchmark's own load but is charged to no process.
  const [user = 0, nice = 0, system = 0, , , , , steal = 0] = fields;
  const busy = user + nice + system + steal;
  return { busy, total, ours: pids.reduce((sum, pid) => sum + processTicks(pid), 0) };
}

/**
 * Cores kept busy between two samples by processes other than the sampled ones: other work on this
 * shared machine takes CPU from wrk and the server, so a run with a high figure is not to be trusted.
 */
export function otherCores(before: CpuSample, after: CpuSample): number {
  const others = after.busy - before.busy - (after.ours - before.ours);
  return (availableParallelism() * Math.max(0, others)) / Math.max(1, after.total - before.total);
}

export async function otherCoresOver(ms: number, pids: readonly number[]): Promise<number> {
  const before = sampleCpu(pids);
  await new Promise((resolve) => setTimeout(resolve, ms));
  return otherCores(before, sampleCpu(pids));
}
