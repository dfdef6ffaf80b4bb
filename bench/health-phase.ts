import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import { openStore } from '../src/adapters/open-store.ts';
import type { NewLink } from '../src/core/entities.ts';
import {
  freePort,
  memoryOf,
  metricOf,
  processTicks,
  type Started,
  startHelper,
  stopper,
  track,
} from './processes.ts';
import { benchLink, codeOf, prepareStore, sampleIndexes } from './seed.ts';
import type { Session } from './session.ts';
import { timed } from './session.ts';
import { HOT_SET, MEASURE_S } from './settings.ts';

/**
 * Link health (docs/api.md §21, docs/adr/048): 100,000 links due at once, checked by one SQLite
 * server against a pool of loopback targets (several processes, so several ports, and 10,000 host
 * names that the bench server's injected resolver sends to loopback). Measures checks per minute,
 * the server's CPU per check and its memory, and the hot redirect's CPU per request under wrk with
 * the checks off and while they run. One request per host per 10 s caps a host at 6 checks a
 * minute, so the rate asked for (LINK_CHECKS_PER_MINUTE) needs at least a sixth as many hosts.
 */

const LINKS = Number(process.env.BENCH_HEALTH_LINKS ?? 100_000);
const HOSTS = 10_000;
const TARGET_PROCESSES = 4;
/** Far above the default 60: the bench measures what one instance can do, not the default's pace. */
const PER_MINUTE = 60_000;
const TICK_US = 10_000;

export interface HealthBench {
  session: Session;
  dir: string;
}

/** The bench server (bench/health-server.ts) on the store, with the environment given. */
async function startServer(databaseUrl: string, env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = track(
    spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', new URL('./health-server.ts', import.meta.url).pathname],
      {
        env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), BASE_URL: url, ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    ),
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`health-server.ts exited early with ${code}`)));
    lines.on('line', (line) => {
      if (/^listening \d+$/.test(line)) resolve();
    });
  });
  return { child, url, stop: () => stopper(child) };
}

async function seed(databaseUrl: string, file: string, ports: readonly number[]): Promise<void> {
  const { workspaceId } = await prepareStore(databaseUrl, 1);
  const store = await openStore(databaseUrl, { prepare: true });
  try {
    const links: NewLink[] = [];
    for (let i = 0; i < LINKS; i++) {
      const url = `http://h${i % HOSTS}.health.bench:${ports[i % ports.length]}/p/${i}`;
      links.push(benchLink(i, workspaceId, url));
    }
    await store.insertLinksBulk(links);
  } finally {
    await store.close();
  }
  // Every link due now, as after an upgrade whose round has come: the worst case for the pace.
  const db = new DatabaseSync(file);
  db.exec('UPDATE links SET health_next_at = 1');
  db.close();
}

export async function healthPhase({ session, dir }: HealthBench): Promise<string[]> {
  const targets = await Promise.all(
    Array.from({ length: TARGET_PROCESSES }, () => startHelper('./target-server.ts')),
  );
  const file = join(dir, 'health.db');
  const databaseUrl = `sqlite:${file}`;
  try {
    await timed(`seed: ${LINKS} links on ${HOSTS} hosts and ${TARGET_PROCESSES} target ports, all due`, () =>
      seed(
        databaseUrl,
        file,
        targets.map((target) => Number(new URL(target.url).port)),
      ),
    );
    const codes = join(dir, 'health-hot.txt');
    writeFileSync(codes, [...sampleIndexes(LINKS, HOT_SET)].map((i) => `${codeOf(i)}\n`).join(''));
    const measure = (target: string, server: Started) =>
      session.measure({
        target,
        servers: [server],
        script: 'redirect.lua',
        env: () => ({ BENCH_CODES: codes }),
        load: { threads: 1, connections: 32 },
      });

    const quiet = await startServer(databaseUrl, { LINK_CHECKS_PER_MINUTE: '0' });
    const before = await measure('snip redirect, link checks off, wrk -t1 -c32', quiet).finally(() =>
      quiet.stop(),
    );

    const busy = await startServer(databaseUrl, { LINK_CHECKS_PER_MINUTE: String(PER_MINUTE) });
    const pid = busy.child.pid as number;
    /** Checks made so far, over every outcome. */
    const checksMade = () => metricOf(busy.url, 'snip_link_checks_total');
    try {
      // The first poll comes 10 s after the start; then the checks alone for the measured time.
      await new Promise((resolve) => setTimeout(resolve, 12_000));
      const [checks0, ticks0, at0] = [await checksMade(), processTicks(pid), Date.now()];
      await new Promise((resolve) => setTimeout(resolve, Math.max(30, 3 * MEASURE_S) * 1000));
      const [checks1, ticks1, at1] = [await checksMade(), processTicks(pid), Date.now()];
      const alone = checks1 - checks0;
      const perMinute = (alone * 60_000) / (at1 - at0);
      const cpuPerCheck = ((ticks1 - ticks0) * TICK_US) / Math.max(1, alone);
      const checkCpuPerSecond = ((ticks1 - ticks0) * TICK_US) / ((at1 - at0) / 1000);
      const during = await measure('snip redirect while link checks run, wrk -t1 -c32', busy);
      const checks2 = await checksMade();
      const memory = memoryOf(pid);
      const cpu = (us: number | undefined) => (us ?? 0).toFixed(1);
      // The server's CPU during the run less what the checks alone took per second, per request.
      const seconds = MEASURE_S;
      const requests = during.requestsPerSecond * seconds;
      const redirectOnly =
        ((during.cpuUsPerRequest ?? 0) * requests - checkCpuPerSecond * seconds) / Math.max(1, requests);
      return [
        `link health: ${alone} checks in ${((at1 - at0) / 1000).toFixed(0)} s = ${perMinute.toFixed(0)} a minute ` +
          `(LINK_CHECKS_PER_MINUTE=${PER_MINUTE}, ${HOSTS} hosts at one request per 10 s each), ` +
          `${cpu(cpuPerCheck)} µs server CPU per check; ${checks2 - checks1} more during wrk`,
        `link health: hot redirect ${cpu(before.cpuUsPerRequest)} µs server CPU per request with checks off, ` +
          `${cpu(during.cpuUsPerRequest)} µs while they run (${cpu(redirectOnly)} µs less the checks' own CPU); ` +
          `${before.requestsPerSecond.toFixed(0)} → ${during.requestsPerSecond.toFixed(0)} req/s, ` +
          `p99 ${before.p99Ms.toFixed(2)} → ${during.p99Ms.toFixed(2)} ms`,
        `link health: server memory ${memory.rssMb.toFixed(0)} MB (peak ${memory.peakRssMb.toFixed(0)} MB) with ${LINKS} links`,
      ];
    } finally {
      await busy.stop();
    }
  } finally {
    await Promise.all(targets.map((target) => target.stop()));
  }
}
