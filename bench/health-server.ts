import { createInspectorWithAddressCheck } from '../src/adapters/inspect/inspector.ts';
import type { Resolver } from '../src/adapters/inspect/types.ts';
import { openStore } from '../src/adapters/open-store.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';

/**
 * The server of the link health phase (bench/health-phase.ts): Snip as `snip serve` builds it, but
 * with an inspector whose resolver sends every `*.health.bench` host to loopback and whose address
 * rule lets loopback through — the bench's own, injected as the tests inject theirs; the
 * production rules (ALLOW_PRIVATE_TARGETS off) are not touched. Prints `listening <port>`.
 */

const resolve: Resolver = async (host) => {
  if (!host.endsWith('.health.bench'))
    throw Object.assign(new Error('not a bench host'), { code: 'ENOTFOUND' });
  return [{ address: '127.0.0.1', family: 4 }];
};

const config = loadConfig({ ...process.env, ALLOW_PRIVATE_TARGETS: 'false', LOG_LEVEL: 'warn' });
const store = await openStore(config.databaseUrl, { prepare: true, timeoutMs: config.storeTimeoutMs });
const inspector = createInspectorWithAddressCheck({ allowPrivate: false, resolve }, () => undefined);
const app = await buildApp(config, {
  store,
  inspector,
  background: 'when-listening',
  logger: { level: 'warn' },
});
process.once('SIGTERM', async () => {
  await app.close();
  await store.close();
  process.exit(0);
});
await app.listen({ port: config.port, host: '127.0.0.1' });
process.stdout.write(`listening ${config.port}\n`);
