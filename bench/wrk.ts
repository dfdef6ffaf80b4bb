import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { otherCoresOver, track } from './processes.ts';

/** Runs wrk against 127.0.0.1 and reads the JSON line bench/lua/report.lua prints. */

export const LUA_DIR = fileURLToPath(new URL('./lua/', import.meta.url));
export const THREADS = 2;
export const CONNECTIONS = 64;

export interface WrkLoad {
  threads: number;
  connections: number;
}

export interface WrkResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Socket errors plus answers with a status of 400 or more. */
  errors: number;
  /** Cores used by other processes than wrk, those under test and this driver in the middle of the run. */
  otherCores: number;
}

/** Installs Debian's wrk when it is not on the PATH (the benchmark runs as root on a throwaway machine). */
export function ensureWrk(): string {
  if (spawnSync('sh', ['-c', 'command -v wrk']).status !== 0) {
    console.log('wrk not found: installing it with apt-get…');
    execFileSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq wrk'], { stdio: 'inherit' });
  }
  const banner = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  return /wrk (\S+)/.exec(`${banner.stdout}${banner.stderr}`)?.[1] ?? 'unknown';
}

/** One wrk process's figures, for runs split over several instances. */
export interface WrkPart {
  url: string;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
}

/** One wrk process: the URL it loads and the environment its script reads. */
export interface WrkTarget {
  url: string;
  env: Record<string, string>;
}

function startWrk(target: WrkTarget, script: string, seconds: number, threads: number, connections: number) {
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--latency'];
  const child = track(
    spawn('wrk', [...args, '-s', `${LUA_DIR}${script}`, target.url], {
      env: { ...process.env, BENCH_LUA_DIR: LUA_DIR, ...target.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const done = new Promise<WrkPart>((resolve, reject) => {
    child.once('close', (code) => {
      const json = /^BENCH_JSON (.*)$/m.exec(output)?.[1];
      if (code !== 0 || !json) {
        reject(new Error(`wrk ${script} on ${target.url} failed (exit ${code}):\n${output}`));
        return;
      }
      const raw = JSON.parse(json) as {
        requests: number;
        duration_us: number;
        p50_us: number;
        p99_us: number;
        max_us: number;
        errors: Record<string, number>;
      };
      resolve({
        url: target.url,
        requests: raw.requests,
        requestsPerSecond: Math.round(raw.requests / (raw.duration_us / 1e6)),
        p50Ms: raw.p50_us / 1000,
        p99Ms: raw.p99_us / 1000,
        maxMs: raw.max_us / 1000,
        errors: Object.values(raw.errors).reduce((sum, n) => sum + n, 0),
      });
    });
  });
  return { pid: child.pid ?? 0, done };
}

/**
 * Runs wrk against each target at once, THREADS and CONNECTIONS split evenly between them (two targets:
 * two wrk processes of -t1 -c32; wrk sends every request to the one host it was given). The result sums
 * requests and req/s and keeps the worst latencies. `ourPids` are the processes under test besides wrk
 * and this driver (the servers, and PostgreSQL and Redis when they serve them).
 */
export async function runWrk(options: {
  targets: readonly WrkTarget[];
  script: string;
  seconds: number;
  ourPids: readonly number[];
  /** wrk's threads and connections, split over the targets; default -t2 -c64. */
  load?: WrkLoad;
}): Promise<WrkResult & { parts?: WrkPart[] }> {
  const count = options.targets.length;
  const { threads, connections } = options.load ?? { threads: THREADS, connections: CONNECTIONS };
  if (count === 0 || threads % count !== 0 || connections % count !== 0)
    throw new Error(`cannot split -t${threads} -c${connections} over ${count} wrk processes`);
  const started = options.targets.map((target) =>
    startWrk(target, options.script, options.seconds, threads / count, connections / count),
  );
  // Failures are reported once all are done; until then, keep the other rejections from going unhandled.
  const all = Promise.allSettled(started.map((wrk) => wrk.done));
  // The middle of the run, while wrk is surely alive: from a quarter of it to nine tenths.
  await new Promise((resolve) => setTimeout(resolve, options.seconds * 250));
  const pids = [...started.map((wrk) => wrk.pid), ...options.ourPids, process.pid];
  const others = await otherCoresOver(options.seconds * 650, pids);
  const parts = (await all).map((settled) => {
    if (settled.status === 'rejected') throw settled.reason;
    return settled.value;
  });
  return {
    requests: parts.reduce((sum, part) => sum + part.requests, 0),
    requestsPerSecond: parts.reduce((sum, part) => sum + part.requestsPerSecond, 0),
    p50Ms: Math.max(...parts.map((part) => part.p50Ms)),
    p99Ms: Math.max(...parts.map((part) => part.p99Ms)),
    maxMs: Math.max(...parts.map((part) => part.maxMs)),
    errors: parts.reduce((sum, part) => sum + part.errors, 0),
    otherCores: Number(others.toFixed(2)),
    ...(count > 1 ? { parts } : {}),
  };
}
