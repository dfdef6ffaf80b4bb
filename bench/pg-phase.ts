import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { type Started, startSnip } from './processes.ts';
import { createScratch } from './scratch.ts';
import { codeOf, prepareStore, seedLinks } from './seed.ts';
import { timed } from './session.ts';
import { HOT_SET, KEYS, PG_ADMIN_URL, REDIS_URL, SMALL } from './settings.ts';
import type { Bench, SqliteResults } from './sqlite-phase.ts';
import { CONNECTIONS, THREADS } from './wrk.ts';

/**
 * Snip on PostgreSQL + Redis, as deployed on several machines: a throwaway database and Redis prefix,
 * 10k links seeded through the bulk path, then redirect and POST /create with one instance and with two
 * (one wrk process per instance, at once).
 */

const SETTLE_MS = 1000;

export interface PgResults {
  notes: string[];
  database: string;
}

export async function pgPhase(bench: Bench, sqlite: SqliteResults | undefined): Promise<PgResults> {
  const { session, dir, bare, target, hotSmall } = bench;
  const scratch = await createScratch(PG_ADMIN_URL, REDIS_URL);
  const instances: Started[] = [];
  const stopInstances = async () => {
    if (instances.length === 0) return;
    // wrk has hung up, but requests it left in flight are still being served: let them end first, or
    // they meet Redis and the pool already closed by the shutdown and log 503s.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    await Promise.all(instances.splice(0).map((instance) => instance.stop()));
  };
  try {
    const store = await timed(`pg: ${KEYS} accounts with keys`, () =>
      prepareStore(scratch.databaseUrl, KEYS),
    );
    const keysFile = join(dir, 'keys-pg.txt');
    writeFileSync(keysFile, `${store.apiKeys.join('\n')}\n`);
    await timed('pg: seed 10k links', () => seedLinks(scratch.databaseUrl, store.workspaceId, 0, SMALL));
    const env = { REDIS_URL: scratch.redisUrl, REDIS_PREFIX: scratch.redisPrefix };
    const start = async (count: number) => {
      await stopInstances();
      const started = await Promise.all(
        Array.from({ length: count }, () => startSnip(scratch.databaseUrl, `/${codeOf(0)}`, 302, env)),
      );
      instances.push(...started);
      return started;
    };
    const redirect = () => ({ BENCH_CODES: hotSmall });
    const create = (tag: string) => ({ BENCH_KEYS: keysFile, BENCH_TARGET: target.url, BENCH_RUN: tag });
    const supportPids = () => scratch.pids();

    // A bare run of its own, just before: the machine's state drifts over the minutes of the SQLite phase.
    await session.measure({
      target: 'bare node:http 302 (the Node limit)',
      bare: true,
      servers: [bare],
      script: 'redirect.lua',
      env: redirect,
    });
    for (const count of [1, 2]) {
      const servers = await start(count);
      const label = count === 1 ? '1 instance' : `${count} instances`;
      await session.measure({
        target: `pg+redis redirect, ${label}, hot set ${HOT_SET}`,
        servers,
        script: 'redirect.lua',
        env: redirect,
        supportPids,
        ...(sqlite ? { sqlite: sqlite.redirectSmall } : {}),
      });
      await session.measure({
        target: `pg+redis POST /create, ${label}`,
        servers,
        script: 'create.lua',
        env: create,
        supportPids,
        ...(sqlite ? { sqlite: sqlite.create } : {}),
      });
    }
  } finally {
    await stopInstances();
    await scratch.drop();
  }
  return {
    database: scratch.name,
    notes: [
      `pg+redis: ${SMALL / 1000}k links seeded (the 1M scale is measured on SQLite); redirects use the same hot set as SQLite's 10k run`,
      `pg+redis, 2 instances: one wrk process per instance at once (-t${THREADS / 2} -c${CONNECTIONS / 2} each, ` +
        `the same ${CONNECTIONS} connections in all, warm-up twice as long); ` +
        'req/s is their sum, p50/p99/max the worse of the two, peak RSS the larger instance’s',
      `pg+redis, 2 instances: both instances, PostgreSQL, Redis and wrk share the same ${availableParallelism()} cores, ` +
        'so the figure shows that sharing works and what it costs, not scale-out gain (one Node process leaves ' +
        'part of a core idle here, which a second one may take); vs bare compares two processes with one',
      ...(sqlite
        ? [
            'vs sqlite: redirects against SQLite’s 10k-link run, POST /create against SQLite’s (made at 1M links)',
          ]
        : ['vs sqlite: no SQLite figures in this run (BENCH_ONLY=pg)']),
    ],
  };
}
