import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { memoryOf, processTicks, type Started, startSnip, stopper, track } from './processes.ts';
import { median } from './report.ts';

/**
 * Start and idle memory (docs/adr/053): the CPU a process spends from spawn to answering, and its
 * resident memory once it has sat idle. The bare node:http server (bench/bare-302.ts) is the baseline:
 * spawn to its `listening` line; Snip on a fresh SQLite store: spawn to its first 200 from /healthz.
 * Rounds take turns so that a change in the machine's load falls on both alike.
 */

const TICK_MS = 10;

export interface StartFigures {
  /** CPU (user + system, every thread) from spawn to listening, ms: median and every round. */
  cpuMs: number;
  cpuRoundsMs: number[];
  /** Wall time from spawn to listening, ms (median): it grows with the machine's load. */
  wallMs: number;
  /** Resident memory after the idle wait, MB (median). */
  idleRssMb: number;
}

interface Sample {
  cpuMs: number;
  wallMs: number;
  rssMb: number;
}

/** The bare server: spawn to its `listening` line, its compile cache warm after the first round. */
async function bareStart(dir: string, idleMs: number): Promise<Sample> {
  const started = performance.now();
  const child = track(
    spawn(process.execPath, [new URL('./bare-302.ts', import.meta.url).pathname], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_COMPILE_CACHE: join(dir, 'bare-compile-cache') },
    }),
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bare-302.ts exited early with ${code}`)));
    lines.on('line', (line) => {
      if (line.startsWith('listening ')) resolve();
    });
  });
  const sample = { cpuMs: processTicks(child.pid as number) * TICK_MS, wallMs: performance.now() - started };
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  const { rssMb } = memoryOf(child.pid as number);
  await stopper(child);
  return { ...sample, rssMb };
}

/** Snip on a store made for this round: spawn to /healthz's first 200, then the idle wait. */
async function snipStart(dir: string, checkout: string | undefined, idleMs: number): Promise<Sample> {
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const snip: Started = await startSnip(
    `sqlite:${join(dir, 'snip.db')}`,
    '/healthz',
    200,
    {},
    60_000,
    checkout,
  );
  const sample = {
    cpuMs: processTicks(snip.child.pid as number) * TICK_MS,
    wallMs: performance.now() - started,
  };
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  const { rssMb } = memoryOf(snip.child.pid as number);
  await snip.stop();
  return { ...sample, rssMb };
}

function figures(samples: readonly Sample[]): StartFigures {
  return {
    cpuMs: median(samples.map((s) => s.cpuMs)),
    cpuRoundsMs: samples.map((s) => s.cpuMs),
    wallMs: Math.round(median(samples.map((s) => s.wallMs))),
    idleRssMb: Math.round(median(samples.map((s) => s.rssMb))),
  };
}

/**
 * `rounds` rounds after one untimed round (which fills the compile caches, as a server's first start
 * after an install does): the bare server, then each checkout. Answers the figures by name.
 */
export async function measureStarts(
  dir: string,
  checkouts: Readonly<Record<string, string | undefined>>,
  rounds: number,
  idleMs: number,
): Promise<Record<string, StartFigures>> {
  const samples: Record<string, Sample[]> = { bare: [] };
  for (const name of Object.keys(checkouts)) samples[name] = [];
  for (let round = 0; round <= rounds; round++) {
    const bare = await bareStart(dir, round === 0 ? 0 : idleMs);
    if (round > 0) samples.bare?.push(bare);
    for (const [name, checkout] of Object.entries(checkouts)) {
      const one = await snipStart(join(dir, `start-${name}-${round}`), checkout, round === 0 ? 0 : idleMs);
      if (round > 0) samples[name]?.push(one);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, figures(list)]));
}
