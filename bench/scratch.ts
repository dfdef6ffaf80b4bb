import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import postgres from 'postgres';
import { onCleanup } from './processes.ts';

/**
 * A throwaway PostgreSQL database and Redis key prefix for the pg+redis phase, dropped and deleted
 * however the run ends (the clean-up is registered before anything is created).
 */

export interface Scratch {
  name: string;
  databaseUrl: string;
  redisUrl: string;
  /** REDIS_PREFIX for the instances: every key and channel they use starts with it. */
  redisPrefix: string;
  /** PostgreSQL's processes serving the database (and its shared background ones), and Redis's. */
  pids(): Promise<number[]>;
  /** Drops the database and deletes the prefix's keys; runs once however often it is called. */
  drop(): Promise<void>;
}

function databaseNamed(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.href;
}

function connections(adminUrl: string, redisUrl: string) {
  return {
    admin: postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 }),
    redis: new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 5000 }),
  };
}

/** Fails fast, before the SQLite phase, when PostgreSQL or Redis cannot be reached. */
export async function checkReachable(adminUrl: string, redisUrl: string): Promise<void> {
  const { admin, redis } = connections(adminUrl, redisUrl);
  redis.on('error', () => {});
  try {
    await admin`SELECT 1`;
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(
      `PostgreSQL (${adminUrl}) or Redis (${redisUrl}) is not reachable: start them, point ` +
        'BENCH_PG_URL / BENCH_REDIS_URL at them, or run BENCH_ONLY=sqlite',
      { cause: error },
    );
  } finally {
    await admin.end();
    redis.disconnect();
  }
}

/** Deletes every key starting with the prefix; returns how many there were. */
async function deleteKeys(redis: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}

export async function createScratch(adminUrl: string, redisUrl: string): Promise<Scratch> {
  const name = `snip_bench_${randomBytes(5).toString('hex')}`;
  const redisPrefix = `${name}:`;
  const { admin, redis } = connections(adminUrl, redisUrl);
  redis.on('error', () => {});
  const drop = onCleanup(async () => {
    try {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      const keys = await deleteKeys(redis, redisPrefix);
      const left = await deleteKeys(redis, redisPrefix);
      console.log(
        `clean-up: dropped database ${name}, deleted ${keys} Redis keys under ${redisPrefix}` +
          (left > 0 ? ` (and ${left} written meanwhile)` : ''),
      );
    } finally {
      await admin.end();
      redis.disconnect();
    }
  });
  try {
    await redis.connect();
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } catch (error) {
    await drop();
    throw error;
  }
  return {
    name,
    databaseUrl: databaseNamed(adminUrl, name),
    redisUrl,
    redisPrefix,
    async pids() {
      const rows = await admin<{ pid: number }[]>`
        SELECT pid FROM pg_stat_activity WHERE datname = ${name} OR datname IS NULL`;
      const redisPid = Number(/^process_id:(\d+)/m.exec(await redis.info('server'))?.[1] ?? 0);
      return [...rows.map((row) => row.pid), ...(redisPid ? [redisPid] : [])];
    },
    drop,
  };
}
