import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { otherCoresOver, track } from './processes.ts';

/** Runs wrk against 127.0.0.1 and reads the JSON line bench/lua/report.lua prints. */

export const LUA_DIR = fileURLToPath(new URL('./lua/', import.meta.url));
export const THREADS = 2;
export const CONNECTIONS = 64;

export interface WrkResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Socket errors plus answers with a status of 400 or more. */
  errors: number;
  /** Cores used by other processes than wrk, the server and this driver during the middle of the run. */
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

export async function runWrk(options: {
  url: string;
  script: string;
  seconds: number;
  env: Record<string, string>;
  serverPid: number;
}): Promise<WrkResult> {
  const args = ['-t', String(THREADS), '-c', String(CONNECTIONS), '-d', `${options.seconds}s`, '--latency'];
  const child = track(
    spawn('wrk', [...args, '-s', `${LUA_DIR}${options.script}`, options.url], {
      env: { ...process.env, BENCH_LUA_DIR: LUA_DIR, ...options.env },
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
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  // The middle of the run, while wrk is surely alive: from a quarter of it to nine tenths.
  await new Promise((resolve) => setTimeout(resolve, options.seconds * 250));
  const pids = [child.pid ?? 0, options.serverPid, process.pid];
  const others = await otherCoresOver(options.seconds * 650, pids);
  const code = await closed;
  const json = /^BENCH_JSON (.*)$/m.exec(output)?.[1];
  if (code !== 0 || !json) throw new Error(`wrk ${options.script} failed (exit ${code}):\n${output}`);
  const raw = JSON.parse(json) as {
    requests: number;
    duration_us: number;
    p50_us: number;
    p99_us: number;
    max_us: number;
    errors: Record<string, number>;
  };
  return {
    requests: raw.requests,
    requestsPerSecond: Math.round(raw.requests / (raw.duration_us / 1e6)),
    p50Ms: raw.p50_us / 1000,
    p99Ms: raw.p99_us / 1000,
    maxMs: raw.max_us / 1000,
    errors: Object.values(raw.errors).reduce((sum, n) => sum + n, 0),
    otherCores: Number(others.toFixed(2)),
  };
}
