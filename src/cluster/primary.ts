import cluster, { type Worker } from 'node:cluster';
import { isSnipMessage, SCRAPE_WAIT_MS, type SnipMessage, WORKER_SLOT_VARIABLE } from './messages.ts';
import { primaryMetrics } from './primary-metrics.ts';

/**
 * The primary of `snip serve --processes N` (docs/adr/052): it loads none of the app. It forks N
 * workers that each run the whole server on one shared port, replaces one that dies (with back-off;
 * a crash loop stops it), forwards SIGTERM/SIGINT once and waits for every worker's own graceful
 * stop (which writes its buffered clicks), and gathers every worker's series when one of them is
 * asked for /metrics.
 */

export interface PrimaryOptions {
  processes: number;
  /** LOG_LEVEL: the primary writes its few lines in the workers' JSON form. */
  logLevel: string;
}

/** A replacement waits this long, doubled for each further exit of its slot within the window. */
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 30_000;
/** More unasked exits than this within RESTART_WINDOW_MS is a crash loop: the primary stops, exit 1. */
const CRASHES_ALLOWED = 5;
const RESTART_WINDOW_MS = 60_000;
/** Each worker stops within its own 25 s deadline (main.ts); the primary kills what is left after this. */
const STOP_DEADLINE_MS = 30_000;

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

type Log = (level: number, fields: Record<string, unknown>, message: string) => void;

function primaryLog(level: string): Log {
  const threshold = LEVELS[level] ?? Number.POSITIVE_INFINITY;
  return (at, fields, msg) => {
    if (at < threshold) return;
    const line = { level: at, time: Date.now(), pid: process.pid, role: 'primary', ...fields, msg };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  };
}

/**
 * Why N processes cannot serve this store, or undefined when they can. In one process's memory, a
 * limit counted N times would allow N times as much, and one SQLite file has one writer at a time
 * and one serving lock (docs/adr/023's table).
 */
export function refusal(
  processes: number,
  settings: { databaseUrl: string; redisUrl: string | undefined },
): string | undefined {
  if (!settings.databaseUrl.startsWith('postgres'))
    return (
      `${processes} processes need PostgreSQL (DATABASE_URL=postgres://…): ` +
      'processes on one SQLite file would queue on its one writer, and one server holds the file (docs/adr/023); ' +
      'serve with one process (PROCESSES=1), or move the store to PostgreSQL'
    );
  if (!settings.redisUrl)
    return (
      `${processes} processes need Redis (REDIS_URL=redis://…): ` +
      'rate limits, unique visitors, the demo log and cache invalidation would be kept in each process, ' +
      `so every limit would allow ${processes} times as much (docs/adr/023); set REDIS_URL, or serve with one process`
    );
  return undefined;
}

/** Runs the workers until a signal stops them (0), or until they cannot start or keep dying (non-zero). */
export function runPrimary(options: PrimaryOptions): Promise<number> {
  const log = primaryLog(options.logLevel);
  const slots = new Map<Worker, number>();
  const listened = new Set<number>();
  const crashes: Array<{ slot: number; at: number }> = [];
  const respawns = new Set<NodeJS.Timeout>();
  const metrics = primaryMetrics(options.processes, () => slots.size);
  let allUp = false;
  let stopping = false;
  let exitCode = 0;
  let force: NodeJS.Timeout | undefined;
  let finish: (code: number) => void = () => {};

  const fork = (slot: number) => {
    const worker = cluster.fork({ [WORKER_SLOT_VARIABLE]: String(slot) });
    slots.set(worker, slot);
    log(30, { worker: slot, workerPid: worker.process.pid }, 'worker started');
    worker.once('listening', () => {
      listened.add(slot);
      if (allUp || listened.size < options.processes) return;
      allUp = true;
      log(30, { processes: options.processes }, 'every worker is listening');
    });
    worker.once('exit', (code, signal) => exited(worker, slot, code, signal));
  };

  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    for (const timer of respawns) clearTimeout(timer);
    log(30, { signal: reason }, 'shutting down');
    // Each worker's graceful path stops accepting, ends what is in flight and writes its clicks.
    for (const worker of slots.keys()) worker.process.kill('SIGTERM');
    force = setTimeout(() => {
      log(50, { workers: slots.size }, 'workers still running after the deadline; killing them');
      exitCode ||= 1;
      for (const worker of slots.keys()) worker.process.kill('SIGKILL');
    }, STOP_DEADLINE_MS);
    if (slots.size === 0) finish(exitCode);
  };

  const exited = (worker: Worker, slot: number, code: number | null, signal: string | null) => {
    slots.delete(worker);
    if (stopping) {
      if (code !== 0) exitCode ||= code ?? 1;
      if (slots.size === 0) finish(exitCode);
      return;
    }
    log(50, { worker: slot, workerPid: worker.process.pid, code, signal }, 'a worker exited');
    if (!allUp) {
      // As a single server that cannot start: what started is stopped, and the process fails.
      exitCode = code || 1;
      stop('a worker could not start');
      return;
    }
    const now = Date.now();
    crashes.push({ slot, at: now });
    while ((crashes[0]?.at ?? now) < now - RESTART_WINDOW_MS) crashes.shift();
    if (crashes.length > CRASHES_ALLOWED) {
      log(60, { exits: crashes.length, windowMs: RESTART_WINDOW_MS }, 'workers keep exiting; stopping');
      exitCode = 1;
      stop('crash loop');
      return;
    }
    const ofSlot = crashes.filter((crash) => crash.slot === slot).length;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (ofSlot - 1));
    const timer = setTimeout(() => {
      respawns.delete(timer);
      metrics.restarted(slot);
      fork(slot);
    }, delay);
    respawns.add(timer);
  };

  const pending = new Map<string, (series: unknown[] | undefined) => void>();
  let nextAsk = 0;
  /** One worker's series, or undefined if it does not answer in time (it is starting or stopping). */
  const seriesOf = (worker: Worker): Promise<unknown[] | undefined> => {
    const id = nextAsk++;
    const key = `${worker.id}:${id}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => answer(undefined), SCRAPE_WAIT_MS);
      const answer = (series: unknown[] | undefined) => {
        clearTimeout(timer);
        pending.delete(key);
        resolve(series);
      };
      pending.set(key, answer);
      if (worker.isConnected()) worker.send({ snip: 'series', id } satisfies SnipMessage, () => {});
      else answer(undefined);
    });
  };
  cluster.on('message', (worker, message: unknown) => {
    if (!isSnipMessage(message)) return;
    if (message.snip === 'series' && 'series' in message) {
      pending.get(`${worker.id}:${message.id}`)?.(message.series);
    } else if (message.snip === 'scrape') {
      const { id } = message;
      void metrics
        .gather(Promise.all([...slots.keys()].map(seriesOf)))
        .then(
          (text) => text,
          () => undefined,
        )
        .then((text) => {
          if (worker.isConnected())
            worker.send({ snip: 'scraped', id, text } satisfies SnipMessage, () => {});
        });
    }
  });

  const onSignal = (signal: NodeJS.Signals) => stop(signal);
  return new Promise<number>((resolve) => {
    finish = (code) => {
      clearTimeout(force);
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      log(code === 0 ? 30 : 50, { code }, 'every worker has stopped');
      resolve(code);
    };
    // `on`, not `once`: a second signal must not end the primary before its workers.
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    for (let slot = 1; slot <= options.processes; slot++) fork(slot);
  });
}
