import { type AppDeps, buildApp } from './app.ts';
import { runCli } from './cli.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import type { RedisConnections } from './state/redis.ts';
import { openStore } from './store/open-store.ts';

/** The process boundary: reads the environment, listens, handles signals. Everything else is passed in. */

const SHUTDOWN_DEADLINE_MS = 10_000;

/** With REDIS_URL, rate limits, the demo log and cache invalidation are shared by every instance. */
async function sharedState(redis: RedisConnections): Promise<Partial<AppDeps>> {
  const { client, subscriber, prefix } = redis;
  // Loaded only with REDIS_URL: a single instance carries no Redis client code.
  const [{ RedisWindowCounter }, { RedisDemoLog }, { RedisLinkEvents }] = await Promise.all([
    import('./state/redis-window-counter.ts'),
    import('./state/redis-demo-log.ts'),
    import('./state/link-events.ts'),
  ]);
  return {
    counter: new RedisWindowCounter(client, prefix),
    demoLog: await RedisDemoLog.open(client, subscriber, prefix),
    linkEvents: await RedisLinkEvents.open(client, subscriber, prefix),
    readinessChecks: [{ name: 'redis', check: async () => void (await client.ping()) }],
  };
}

async function serve(config: Config): Promise<void> {
  const store = await openStore(config.databaseUrl, { prepare: true });
  const redis = config.redisUrl
    ? await (await import('./state/redis.ts')).connectRedis(config.redisUrl, config.redisPrefix)
    : undefined;
  const app = await buildApp(config, {
    store,
    ...(redis ? await sharedState(redis) : {}),
    logger: {
      level: config.logLevel,
      redact: ['req.headers["x-api-key"]', 'req.headers.cookie', 'req.body.apikey', 'req.body.password'],
    },
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown deadline passed; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    force.unref();
    try {
      // Stops accepting, finishes in-flight requests, flushes clicks; then the pools close.
      await app.close();
      await app.demoLog.close();
      await app.linkEvents.close();
      await redis?.close();
      await store.close();
    } finally {
      clearTimeout(force);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
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
  if (command === 'serve') {
    await serve(config);
    return 0;
  }
  return runCli(argv, config, { out: process.stdout, err: process.stderr });
}
