import { writeFileSync } from 'node:fs';
import type { WrkPart, WrkResult } from './wrk.ts';

/** The table printed at the end, the goals from the issue, and bench/results/latest.json. */

/** The middle of the values (the mean of the two middle ones for an even count; 0 for none). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export interface Run extends WrkResult {
  target: string;
  /** Requests per second divided by the bare node:http server's, for the redirect runs. */
  ratioVsBare?: number;
  /** The servers' CPU time (user + system, every thread) per request answered, in microseconds. */
  cpuUsPerRequest?: number;
  /** The part of that spent on the servers' main threads, which serve the requests. */
  mainUsPerRequest?: number;
  /** That, divided by the bare node:http server's in the run before it (redirect runs). */
  cpuVsBare?: number;
  /** Requests per second divided by those of SQLite's run of the same request (pg+redis runs). */
  ratioVsSqlite?: number;
  /** Snip's resident memory after the run, and its peak since it started (VmHWM), in MB; the larger
   * instance's when there are several. */
  rssMb?: number;
  peakRssMb?: number;
  /** Runs over several instances: each one's wrk figures and memory. */
  perInstance?: Array<WrkPart & { rssMb: number; peakRssMb: number }>;
}

export interface Goal {
  goal: string;
  actual: string;
  met: boolean;
}

/** Cores used by other processes during a run above which the run is flagged as disturbed. */
const DISTURBED_CORES = 0.2;

export const disturbed = (run: Run): boolean => run.otherCores >= DISTURBED_CORES;

/*
 * The goals of issue [7/7] (README, Benchmarks): server CPU per request first, as ratios measured in
 * the same run; then tail latency, create throughput and memory.
 */

const cpu = (run: Run) => run.cpuUsPerRequest ?? Number.POSITIVE_INFINITY;

/** Hot browser clicks at wrk -t1 -c32 with TRACKING=full against the bare server under the same load. */
export function cpuGoal(run: Run): Goal {
  const ratio = run.cpuVsBare ?? Number.POSITIVE_INFINITY;
  return {
    goal: 'hot redirect with TRACKING=full (browser clicks, wrk -t1 -c32) ≤ 1.0× bare node:http server CPU per request',
    actual: `${ratio.toFixed(2)}× (${cpu(run).toFixed(1)} µs)`,
    met: ratio <= 1.0,
  };
}

/** The stretch: the same run against nginx's CPU per redirect. */
export function nginxGoal(run: Run, nginx: Run): Goal {
  const ratio = cpu(run) / Math.max(0.01, cpu(nginx));
  return {
    goal: 'stretch: that hot redirect ≤ 1.5× nginx return 302 server CPU per request',
    actual: `${ratio.toFixed(2)}× (${cpu(run).toFixed(1)} µs vs ${cpu(nginx).toFixed(1)} µs)`,
    met: ratio <= 1.5,
  };
}

export function p99Goal(what: string, run: Run, limitMs: number): Goal {
  return {
    goal: `${what} p99 ≤ ${limitMs} ms at 64 connections`,
    actual: `${run.p99Ms.toFixed(2)} ms (${run.ratioVsBare?.toFixed(2) ?? '?'}× bare req/s)`,
    met: run.p99Ms <= limitMs,
  };
}

export function coldGoal(run: Run): Goal {
  const ratio = run.ratioVsBare ?? 0;
  return {
    goal: 'redirect uniform over all 1M codes (cold) ≥ 0.6× bare req/s and p99 ≤ 8 ms',
    actual: `${ratio.toFixed(2)}× bare, p99 ${run.p99Ms.toFixed(2)} ms, ${cpu(run).toFixed(1)} µs CPU per request`,
    met: ratio >= 0.6 && run.p99Ms <= 8,
  };
}

export function createGoal(run: Run): Goal {
  return {
    goal: 'POST /create ≥ 2,500 links/s (200 keys, local target)',
    actual: `${Math.round(run.requestsPerSecond).toLocaleString('en-US')} links/s, ${run.errors} errors, ${cpu(run).toFixed(0)} µs CPU per create`,
    met: run.requestsPerSecond >= 2500 && run.errors === 0,
  };
}

export function rssGoal(peakRssMb: number): Goal {
  return {
    goal: 'peak RSS over the 1M phase (analytics on) ≤ 250 MB',
    actual: `${peakRssMb.toFixed(0)} MB`,
    met: peakRssMb <= 250,
  };
}

const times = (ratio: number | undefined) => (ratio === undefined ? '' : `${ratio.toFixed(2)}×`);

export function formatRun(run: Run): string {
  return [
    run.target.padEnd(56),
    Math.round(run.requestsPerSecond).toLocaleString('en-US').padStart(9),
    `${run.p50Ms.toFixed(2)} ms`.padStart(10),
    `${run.p99Ms.toFixed(2)} ms`.padStart(10),
    times(run.ratioVsBare).padStart(8),
    (run.cpuUsPerRequest === undefined ? '' : `${run.cpuUsPerRequest.toFixed(1)} µs`).padStart(9),
    times(run.cpuVsBare).padStart(8),
    times(run.ratioVsSqlite).padStart(9),
    String(run.errors).padStart(7),
    (run.peakRssMb === undefined ? '' : `${run.peakRssMb.toFixed(0)} MB`).padStart(9),
    `${run.otherCores.toFixed(2)}${disturbed(run) ? ' *' : ''}`.padStart(12),
  ].join('  ');
}

export function printTable(runs: readonly Run[], goals: readonly Goal[], notes: readonly string[]): void {
  const header = ['target'.padEnd(56), 'req/s'.padStart(9), 'p50'.padStart(10), 'p99'.padStart(10)];
  const more = [
    'vs bare'.padStart(8),
    'CPU/req'.padStart(9),
    'CPU×bare'.padStart(8),
    'vs sqlite'.padStart(9),
    'errors'.padStart(7),
    'peak RSS'.padStart(9),
    'other cores'.padStart(12),
  ];
  console.log(`\n${[...header, ...more].join('  ')}`);
  for (const run of runs) console.log(formatRun(run));
  console.log('');
  for (const goal of goals) console.log(`${goal.met ? 'met   ' : 'MISSED'}  ${goal.goal}: ${goal.actual}`);
  for (const note of notes) console.log(`note: ${note}`);
  if (runs.some(disturbed)) {
    console.log(
      `note: * other processes used ≥ ${DISTURBED_CORES} cores during the run: its figures are low`,
    );
  }
}

export function writeResults(path: string, results: object): void {
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote ${path}`);
}
