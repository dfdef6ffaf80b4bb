/** What the environment sets for `npm run bench`, read and checked once. */

function positiveInteger(name: string, fallback: number, unit = 'seconds'): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9]\d*$/.test(raw)) throw new Error(`${name} must be a whole number of ${unit}, got "${raw}"`);
  return Number(raw);
}

const PHASES = [
  'sqlite',
  'domains',
  'conversions',
  'blocklist',
  'pg',
  'processes',
  'webhooks',
  'api',
  'stalls',
  'cli',
  'stats',
  'search',
  'ab',
  'idle',
  'sales',
  'health',
  'light',
  'console',
  'writer',
] as const;
/** A phase BENCH_ONLY can name. */
export type Phase = (typeof PHASES)[number];

function only(): Phase | undefined {
  const raw = process.env.BENCH_ONLY?.trim();
  if (raw === undefined || raw === '') return undefined;
  const phase = PHASES.find((name) => name === raw);
  if (phase) return phase;
  throw new Error(`BENCH_ONLY must be one of ${PHASES.join(', ')}, got "${raw}"`);
}

/** BENCH_DURATION: seconds of each measured run (default 10); the warm-up is 3 s, or less if shorter. */
export const MEASURE_S = positiveInteger('BENCH_DURATION', 10);
export const WARMUP_S = Math.min(3, MEASURE_S);
/** BENCH_ONLY=sqlite|domains|blocklist|pg|processes|webhooks|api|stalls|cli|stats|search|ab|health|idle|light|console runs one phase; unset, all of them (idle only alone). */
export const ONLY = only();
/**
 * BENCH_BLOCKLIST_ROUNDS: rounds of the blocklist phase (default 3), each a bare run and a run of
 * each server; more narrow the noise of its difference.
 */
export const BLOCKLIST_ROUNDS = positiveInteger('BENCH_BLOCKLIST_ROUNDS', 3, 'rounds');
/** BENCH_WEBHOOK_EVENTS: events the webhooks phase queues at once for one server to deliver (default 20,000). */
export const WEBHOOK_EVENTS = positiveInteger('BENCH_WEBHOOK_EVENTS', 20_000, 'events');
/** BENCH_WEBHOOK_ROUNDS: rounds of the webhooks phase's redirect runs (default 3), as for blocklists. */
export const WEBHOOK_ROUNDS = positiveInteger('BENCH_WEBHOOK_ROUNDS', 3, 'rounds');
/** BENCH_CLI_RUNS: how many times the cli phase runs each command (default 10). */
export const CLI_RUNS = positiveInteger('BENCH_CLI_RUNS', 10, 'runs');
/** Where the pg+redis phase creates its throwaway database (any database of the server will do) and keys. */
export const PG_ADMIN_URL = process.env.BENCH_PG_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.BENCH_REDIS_URL?.trim() || 'redis://127.0.0.1:6379';

export const SMALL = 10_000;
export const LARGE = 1_000_000;
export const HOT_SET = 4096;
export const KEYS = 200;
