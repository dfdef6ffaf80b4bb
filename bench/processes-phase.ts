import { get } from 'node:http';
import { availableParallelism } from 'node:os';
import { type Started, startSnip } from './processes.ts';
import type { Run } from './report.ts';
import { createScratch } from './scratch.ts';
import { codeOf, prepareStore, seedLinks } from './seed.ts';
import { timed } from './session.ts';
import { HOT_SET, PG_ADMIN_URL, REDIS_URL, SMALL } from './settings.ts';
import type { Bench } from './sqlite-phase.ts';

/**
 * `snip serve --processes N` (docs/adr/052) on PostgreSQL + Redis: one throwaway database and Redis
 * prefix, 10k links, and the hot redirect of one server started with PROCESSES=1, then with
 * PROCESSES=2, under the same wrk load in the same run. CPU per request counts every process of the
 * server (primary and workers).
 */

/** One GET on a connection of its own: node:cluster hands each new connection to the next worker. */
function freshGet(url: string): Promise<number> {
  return new Promise((resolve) => {
    get(url, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on('error', () => resolve(0));
  });
}

/** Waits until each of the `processes` workers has answered a request (at most 60 s). */
async function everyWorkerServing(server: Started, processes: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    await Promise.all(Array.from({ length: processes }, () => freshGet(`${server.url}/healthz`)));
    const metrics = await fetch(`${server.url}/metrics`).then((response) => response.text());
    const answered = new Set(
      [...metrics.matchAll(/^snip_http_requests_total\{route="\/healthz"[^}]*worker="(\d+)"/gm)].map(
        (match) => match[1],
      ),
    );
    if (answered.size >= processes) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`not every one of ${processes} workers answered within 60 s`);
}

export async function processesPhase(bench: Bench): Promise<string[]> {
  const { session, bare, hotSmall } = bench;
  const scratch = await createScratch(PG_ADMIN_URL, REDIS_URL);
  let server: Started | undefined;
  const runs: Run[] = [];
  try {
    const store = await timed('processes: accounts', () => prepareStore(scratch.databaseUrl, 1));
    await timed('processes: seed 10k links', () =>
      seedLinks(scratch.databaseUrl, store.workspaceId, 0, SMALL),
    );
    await session.measure({
      target: 'bare node:http 302 (the Node limit)',
      bare: true,
      servers: [bare],
      script: 'redirect.lua',
      env: () => ({ BENCH_CODES: hotSmall }),
    });
    for (const processes of [1, 2]) {
      server = await startSnip(scratch.databaseUrl, `/${codeOf(0)}`, 302, {
        REDIS_URL: scratch.redisUrl,
        REDIS_PREFIX: scratch.redisPrefix,
        PROCESSES: String(processes),
      });
      if (processes > 1) await everyWorkerServing(server, processes);
      runs.push(
        await session.measure({
          target: `pg+redis redirect, --processes ${processes}, hot set ${HOT_SET}`,
          servers: [server],
          // Each worker fills its own link cache and compiles its own code.
          warmers: processes,
          script: 'redirect.lua',
          env: () => ({ BENCH_CODES: hotSmall }),
          supportPids: () => scratch.pids(),
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await server.stop();
      server = undefined;
    }
  } finally {
    await server?.stop();
    await scratch.drop();
  }
  const [one, two] = runs as [Run, Run];
  return [
    `processes: hot redirect on pg+redis, --processes 2 vs 1: ${(two.requestsPerSecond / one.requestsPerSecond).toFixed(2)}× the requests/s, ` +
      `${((two.cpuUsPerRequest ?? 0) / Math.max(0.01, one.cpuUsPerRequest ?? 0)).toFixed(2)}× the CPU per request ` +
      '(every process of the server: primary and workers)',
    `processes: wrk, PostgreSQL, Redis and the server share the same ${availableParallelism()} cores; ` +
      'on a larger host the second process has a core of its own',
  ];
}
