/** What the environment sets for `npm run bench`, read and checked once. */

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9]\d*$/.test(raw)) throw new Error(`${name} must be a whole number of seconds, got "${raw}"`);
  return Number(raw);
}

function only(): 'sqlite' | 'domains' | 'pg' | 'api' | 'stats' | undefined {
  const raw = process.env.BENCH_ONLY?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'sqlite' || raw === 'domains' || raw === 'pg' || raw === 'api' || raw === 'stats') return raw;
  throw new Error(`BENCH_ONLY must be sqlite, domains, pg, api or stats, got "${raw}"`);
}

/** BENCH_DURATION: seconds of each measured run (default 10); the warm-up is 3 s, or less if shorter. */
export const MEASURE_S = positiveInteger('BENCH_DURATION', 10);
export const WARMUP_S = Math.min(3, MEASURE_S);
/** BENCH_ONLY=sqlite|pg|api|stats runs one phase; unset, all four. */
export const ONLY = only();
/** Where the pg+redis phase creates its throwaway database (any database of the server will do) and keys. */
export const PG_ADMIN_URL = process.env.BENCH_PG_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.BENCH_REDIS_URL?.trim() || 'redis://127.0.0.1:6379';

export const SMALL = 10_000;
export const LARGE = 1_000_000;
export const HOT_SET = 4096;
export const KEYS = 200;
