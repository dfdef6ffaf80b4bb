import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import type { WorkerSeat } from './cluster/worker-seat.ts';
import { type Config, ConfigError, loadConfig, readProcesses } from './config.ts';

/**
 * The process boundary: reads the environment, listens, handles signals. Everything else is passed
 * in. The server and the command line are each loaded only when asked for: `snip --help` loads
 * neither the server nor any feature's code.
 */

/**
 * How long a graceful stop may take before the process exits anyway. The buffered clicks are written
 * first: after a burst spread over a million links that took 8.5 s (bench, 10 s of such clicks), so
 * 25 s, inside the 30 s most orchestrators wait before they kill.
 */
const SHUTDOWN_DEADLINE_MS = 25_000;
/** How long a server that could not listen may take to close what it opened before it exits anyway. */
const FAILED_START_DEADLINE_MS = 3_000;

/**
 * Serves until a signal stops it (0); 1 when it cannot listen, after closing all it opened. A worker
 * of `--processes N` (its seat given) serves the same way, its series labelled and shared.
 */
async function serve(config: Config, seat?: WorkerSeat): Promise<number> {
  const [{ openStore }, { openCountryLookup }, { buildApp }] = await Promise.all([
    import('./adapters/open-store.ts'),
    import('./adapters/geo/country.ts'),
    import('./app.ts'),
  ]);
  const release = await servingLock(config.databaseUrl);
  if (release === undefined) return 1;
  const store = await openStore(config.databaseUrl, { prepare: true, timeoutMs: config.storeTimeoutMs });
  // Loaded only with REDIS_URL: a single instance carries no Redis client code.
  const shared = config.redisUrl
    ? await (await import('./adapters/redis/shared-state.ts')).openRedisState(
        config.redisUrl,
        config.redisPrefix,
        config.storeTimeoutMs,
      )
    : undefined;
  // The offline country database of targeting rules, loaded once before serving (docs/adr/017).
  const countries = await openCountryLookup();
  const app = await buildApp(config, {
    store,
    countries,
    ...shared?.ports,
    deliverFrom: config.databaseUrl,
    background: 'when-listening',
    workerMetrics: seat,
    logger: {
      level: config.logLevel,
      ...(seat ? { base: { pid: process.pid, hostname: hostname(), worker: seat.slot } } : {}),
      redact: ['req.headers["x-api-key"]', 'req.headers.cookie', 'req.body.apikey', 'req.body.password'],
    },
  });
  let stopping = false;
  let stopTrim = () => {};
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    stopTrim();
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown deadline passed; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    force.unref();
    try {
      // Stops accepting, finishes in-flight requests, flushes clicks, closes the demo log and link
      // events; then the connections close.
      await app.close();
      await shared?.close();
      await store.close();
      countries.close?.();
      release();
    } finally {
      clearTimeout(force);
      seat?.leave();
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  seat?.onOrphaned(() => void stop('the primary is gone'));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // A process without a listener must not live on beside the real server: holding the store,
    // running the schedulers and delivering webhooks. Everything opened is closed, then it exits.
    app.log.error({ err: error }, 'the server cannot listen; stopping');
    setTimeout(() => process.exit(1), FAILED_START_DEADLINE_MS).unref();
    await stop('listen failed');
    return 1;
  }
  // The heap the start left behind is given back once the server is idle (docs/adr/053).
  stopTrim = (await import('./kernel/heap-trim.ts')).trimHeapWhenIdle({
    connections: () => new Promise((resolve) => app.server.getConnections((_, count) => resolve(count ?? 1))),
  });
  return 0;
}

/** The embedded store's one-server lock (adapters/sqlite/serve-lock.ts); undefined when another server holds it. */
async function servingLock(databaseUrl: string): Promise<(() => void) | undefined> {
  if (!databaseUrl.startsWith('sqlite:')) return () => {};
  const { holdServeLock, ServedElsewhere } = await import('./adapters/sqlite/serve-lock.ts');
  try {
    return holdServeLock(databaseUrl.slice('sqlite:'.length));
  } catch (error) {
    if (!(error instanceof ServedElsewhere)) throw error;
    process.stderr.write(`snip: ${error.message}\n`);
    return undefined;
  }
}

const SERVE_USAGE = 'usage: snip serve [--processes N|auto]';

/**
 * `snip serve [--processes N]`: one server, or (N > 1) a primary that loads none of the app and N
 * workers, each this same command run again by node:cluster (docs/adr/052).
 */
async function serveCommand(words: readonly string[], config: Config): Promise<number> {
  let processes = config.processes;
  try {
    const { values } = parseArgs({ args: [...words], options: { processes: { type: 'string' } } });
    if (values.processes !== undefined) processes = readProcesses(values.processes, '--processes');
  } catch (error) {
    process.stderr.write(`snip: ${error instanceof Error ? error.message : String(error)}\n${SERVE_USAGE}\n`);
    return 64;
  }
  if (processes === 1) return serve(config);
  const { default: cluster } = await import('node:cluster');
  if (cluster.isWorker) return serve(config, (await import('./cluster/worker-seat.ts')).takeSeat());
  const { refusal, runPrimary } = await import('./cluster/primary.ts');
  const refused = refusal(processes, config);
  if (refused) {
    process.stderr.write(`snip: ${refused}\n`);
    return 78;
  }
  return runPrimary({ processes, logLevel: config.logLevel });
}

export async function main(argv: readonly string[]): Promise<number> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`snip: configuration error: ${error.message}\n`);
      return 78;
    }
    throw error;
  }
  const [command = 'serve'] = argv;
  // `snip serve --help` prints its usage (cli.ts) rather than starting the server.
  if (command === 'serve' && !argv.includes('--help') && !argv.includes('-h')) {
    return serveCommand(argv.slice(1), config);
  }
  const { runCli } = await import('./cli.ts');
  return runCli(argv, config, { out: process.stdout, err: process.stderr });
}
