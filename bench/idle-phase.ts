import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Started, startSnip, threadTicks } from './processes.ts';
import { type Goal, writeResults } from './report.ts';
import { prepareStore, removeDatabase } from './seed.ts';

/**
 * An idle Snip (docs/adr/051): one server on a fresh SQLite store, no traffic, its CPU over
 * BENCH_IDLE_SECONDS (default 60) after a few seconds to settle, per thread: what the timers, polls
 * and the delivery thread cost while nothing happens. Goal: under 1% of a core for the process.
 */

const TICK_MS = 10;
const SETTLE_MS = 5000;
const IDLE_S = Math.max(5, Number(process.env.BENCH_IDLE_SECONDS ?? 60) || 60);

export interface IdleFigures {
  seconds: number;
  /** Share of one core, in %, over the window. */
  mainThreadPercent: number;
  processPercent: number;
  /** Each thread that used any CPU: its name, and its share of one core in %. */
  threads: Array<{ name: string; percent: number }>;
}

export interface IdleResults {
  figures: IdleFigures;
  lines: string[];
  goals: Goal[];
}

/** Every thread of `pid` with its name and ticks so far. */
function threadsOf(pid: number): Map<number, { name: string; ticks: number }> {
  const threads = new Map<number, { name: string; ticks: number }>();
  for (const entry of readdirSync(`/proc/${pid}/task`)) {
    const tid = Number(entry);
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      threads.set(tid, { name, ticks: threadTicks(pid, tid) });
    } catch {
      // ended meanwhile
    }
  }
  return threads;
}

export async function idlePhase(dir: string): Promise<IdleResults> {
  const path = join(dir, 'idle.db');
  const databaseUrl = `sqlite:${path}`;
  await prepareStore(databaseUrl, 0);
  let snip: Started | undefined;
  try {
    snip = await startSnip(databaseUrl, '/healthz', 200);
    const pid = snip.child.pid as number;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const before = threadsOf(pid);
    await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
    const after = threadsOf(pid);
    const percent = (ticks: number) => Math.round(((ticks * TICK_MS) / (IDLE_S * 1000)) * 10_000) / 100;
    const threads = [...after]
      .map(([tid, now]) => ({ name: now.name, ticks: now.ticks - (before.get(tid)?.ticks ?? 0) }))
      .filter((thread) => thread.ticks > 0)
      .sort((a, b) => b.ticks - a.ticks)
      .map((thread) => ({ name: thread.name, percent: percent(thread.ticks) }));
    const total = [...after].reduce((sum, [tid, now]) => sum + now.ticks - (before.get(tid)?.ticks ?? 0), 0);
    const main = (after.get(pid)?.ticks ?? 0) - (before.get(pid)?.ticks ?? 0);
    const figures: IdleFigures = {
      seconds: IDLE_S,
      mainThreadPercent: percent(main),
      processPercent: percent(total),
      threads,
    };
    const line =
      `idle: one server on a fresh SQLite store, no traffic, over ${IDLE_S} s: ${figures.processPercent.toFixed(2)}% ` +
      `of a core (main thread ${figures.mainThreadPercent.toFixed(2)}%; ` +
      `${threads.map((thread) => `${thread.name} ${thread.percent.toFixed(2)}%`).join(', ') || 'no thread ran'})`;
    console.log(line);
    return {
      figures,
      lines: [line],
      goals: [
        {
          goal: 'an idle server uses under 1% of a core',
          actual: `${figures.processPercent.toFixed(2)}%`,
          met: figures.processPercent < 1,
        },
      ],
    };
  } finally {
    await snip?.stop();
    removeDatabase(path);
  }
}

/** The idle phase alone (BENCH_ONLY=idle): no wrk; its results in `resultsPath`. */
export async function idleOnly(dir: string, resultsPath: string): Promise<void> {
  console.log('idle phase');
  const idle = await idlePhase(dir);
  for (const goal of idle.goals)
    console.log(`${goal.met ? 'met   ' : 'MISSED'}  ${goal.goal}: ${goal.actual}`);
  writeResults(resultsPath, {
    date: new Date().toISOString(),
    idle: idle.figures,
    goals: idle.goals,
    notes: [],
  });
}
