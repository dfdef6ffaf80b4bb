import { join } from 'node:path';
import { measureStarts, type StartFigures } from './light-start.ts';
import { startNginx } from './nginx.ts';
import { HUMAN_REDIRECTS, memoryOf, metricsOf, SNIP_DIR, type Started, startSnip } from './processes.ts';
import type { Goal, Run } from './report.ts';
import { codeOf, prepareStore, sampleIndexes, seedLinks, writeCodes } from './seed.ts';
import { timed } from './session.ts';
import { HOT_SET } from './settings.ts';
import { type Bench, BROWSER_CLICK } from './sqlite-phase.ts';

/**
 * `BENCH_ONLY=light` (docs/adr/053): what Snip costs before and beside its hot path, each figure beside
 * the bare node:http server's measured in the same run, and nginx's `return 302` beside both (the peer
 * line):
 * - start: CPU from spawn to the first answer, and resident memory after 15 s idle, on a fresh store;
 * - the long tail: browser clicks spread uniformly over 100,000 links (most not in memory since the
 *   last flush) beside the hot set, CPU per request at wrk -t1 -c32.
 * BENCH_BEFORE_DIR=<another checkout> measures that checkout's server too, in the same rounds.
 */

const LINKS = 100_000;
const ROUNDS = 3;
const IDLE_MS = 15_000;
const LIGHT = { threads: 1, connections: 32 };

/** Of the human clicks a server redirected (warm-up and hot set included), the raw visits it dropped. */
interface Shed {
  dropped: number;
  clicks: number;
}

export interface LightResults {
  starts: Record<string, StartFigures>;
  runs: Record<string, Run>;
  goals: Goal[];
  lines: string[];
}

export async function lightPhase({ session, dir, bare }: Bench): Promise<LightResults> {
  const before = process.env.BENCH_BEFORE_DIR?.trim() || undefined;
  const checkouts: Record<string, string | undefined> = { snip: SNIP_DIR, ...(before ? { before } : {}) };
  const starts = await timed(`start and idle memory, ${ROUNDS} rounds`, () =>
    measureStarts(dir, checkouts, ROUNDS, IDLE_MS),
  );

  const databaseUrl = `sqlite:${join(dir, 'light.db')}`;
  const store = await prepareStore(databaseUrl, 1);
  await timed('seed: 100k links', () => seedLinks(databaseUrl, store.workspaceId, 0, LINKS));
  const hot = writeCodes(join(dir, 'light-hot.txt'), sampleIndexes(LINKS, HOT_SET));
  const all = writeCodes(
    join(dir, 'light-all.txt'),
    Array.from({ length: LINKS }, (_, i) => i),
  );
  const clicks = (codes: string) => () => ({ BENCH_CODES: codes, ...BROWSER_CLICK });
  const runs: Record<string, Run> = {};
  const measure = async (
    name: string,
    target: string,
    servers: readonly Started[],
    codes: string,
    isBare = false,
  ) => {
    runs[name] = await session.measure({
      target,
      bare: isBare,
      servers,
      script: 'redirect.lua',
      env: clicks(codes),
      load: LIGHT,
    });
  };
  await measure('bareHot', 'bare node:http 302, browser clicks, wrk -t1 -c32', [bare], hot, true);
  const nginx = await startNginx(dir, 'https://example.com/articles');
  await measure('nginxHot', 'nginx return 302, browser clicks, wrk -t1 -c32', [nginx], hot);
  await nginx.stop();
  const memory: Record<string, number> = {};
  const shed: Record<string, Shed> = {};
  for (const [name, checkout] of Object.entries(checkouts)) {
    const snip = await startSnip(databaseUrl, `/${codeOf(0)}`, 302, {}, 30_000, checkout);
    await measure(
      `${name}Hot`,
      `${name}: redirect, 100k links, hot set ${HOT_SET}, browser clicks, wrk -t1 -c32`,
      [snip],
      hot,
    );
    await measure('bareTail', 'bare node:http 302, browser clicks, wrk -t1 -c32', [bare], all, true);
    await measure(
      `${name}Tail`,
      `${name}: redirect, uniform over 100k links, browser clicks, wrk -t1 -c32`,
      [snip],
      all,
    );
    memory[name] = memoryOf(snip.child.pid as number).rssMb;
    // Visits the writer was too far behind to take (docs/adr/053): counts stay exact, raw visits go.
    const [dropped, clicks] = await metricsOf(snip.url, ['snip_visits_dropped_total', HUMAN_REDIRECTS]);
    shed[name] = { dropped: dropped as number, clicks: clicks as number };
    await snip.stop();
  }
  return report(starts, runs, memory, shed, Object.keys(checkouts));
}

function report(
  starts: Record<string, StartFigures>,
  runs: Record<string, Run>,
  memory: Record<string, number>,
  shed: Record<string, Shed>,
  names: readonly string[],
): LightResults {
  const cpu = (name: string) => runs[name]?.cpuUsPerRequest ?? Number.NaN;
  const bareStart = starts.bare as StartFigures;
  const lines = [
    `bare node:http: start ${bareStart.cpuMs} ms CPU (${bareStart.wallMs} ms wall), idle RSS ${bareStart.idleRssMb} MB`,
    `nginx return 302: ${cpu('nginxHot').toFixed(1)} µs CPU per browser click (bare node ${cpu('bareHot').toFixed(1)} µs)`,
  ];
  const goals: Goal[] = [];
  for (const name of names) {
    const start = starts[name] as StartFigures;
    const above = start.cpuMs - bareStart.cpuMs;
    const tail = cpu(`${name}Tail`) / cpu('bareTail');
    lines.push(
      `${name}: start ${start.cpuMs} ms CPU (rounds ${start.cpuRoundsMs.join(', ')}; ${start.wallMs} ms wall), ` +
        `${above} ms above bare; idle RSS ${start.idleRssMb} MB`,
      `${name}: hot ${cpu(`${name}Hot`).toFixed(1)} µs (${(cpu(`${name}Hot`) / cpu('bareHot')).toFixed(2)}× bare, ` +
        `${(cpu(`${name}Hot`) / cpu('nginxHot')).toFixed(2)}× nginx); long tail ${cpu(`${name}Tail`).toFixed(1)} µs ` +
        `(${tail.toFixed(2)}× bare, ${(cpu(`${name}Tail`) / cpu('nginxHot')).toFixed(2)}× nginx); RSS after it ${memory[name]?.toFixed(0)} MB; ` +
        `visits shed by a writer behind: ${shed[name]?.dropped.toLocaleString('en-US')} of ${shed[name]?.clicks.toLocaleString('en-US')} clicks`,
    );
    if (name !== 'snip') continue;
    goals.push(
      {
        goal: 'idle RSS on a fresh SQLite store ≤ 150 MB',
        actual: `${start.idleRssMb} MB`,
        met: start.idleRssMb <= 150,
      },
      {
        goal: 'start CPU ≤ 1.5 s above the bare server spawn-to-listen',
        actual: `${above} ms`,
        met: above <= 1500,
      },
      {
        goal: 'long tail (uniform over 100k links) ≤ 2.5× bare CPU per request',
        actual: `${tail.toFixed(2)}×`,
        met: tail <= 2.5,
      },
    );
  }
  return { starts, runs, goals, lines };
}
