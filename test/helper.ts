import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, FastifyServerOptions, InjectOptions } from 'fastify';
import type { Resolver } from '../src/adapters/inspect/types.ts';
import { openStore } from '../src/adapters/open-store.ts';
import { type AppDeps, buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import type { CountryLookup } from '../src/core/ports/geo.ts';
import type { InspectOutcome, Inspector } from '../src/core/ports/inspector.ts';
import type { LiveClicks } from '../src/core/ports/live-clicks.ts';
import type { ReadinessCheck } from '../src/core/ports/readiness.ts';
import type { WindowCounter } from '../src/core/ports/shared-state.ts';
import type { Store } from '../src/core/ports/store.ts';
import type { Visitors } from '../src/core/ports/visitors.ts';
import { groupOperations } from '../src/features/groups/cli/group-commands.ts';
import { accountOperations } from '../src/features/workspaces/cli/account-operations.ts';
import { copyMigratedDatabase } from './fixtures/template-db.ts';

/** What the operator can do (`snip account …`, `snip group …`), for seeding a store. */
export function operations(store: Store) {
  return { ...accountOperations(store), ...groupOperations(store) };
}

/** A recording inspector: answers what the test says, counts what was fetched. */
export class FakeInspector implements Inspector {
  readonly fetched: string[] = [];
  outcome: (url: URL) => InspectOutcome = (url) => ({
    ok: true,
    title: 'A page',
    finalUrl: url.href,
    status: 200,
  });

  async inspect(url: URL): Promise<InspectOutcome> {
    this.fetched.push(url.href);
    return this.outcome(url);
  }

  async close(): Promise<void> {}
}

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  config: Config;
  ops: ReturnType<typeof operations>;
  inspector: Inspector;
  /** An account on a plan with API access; its key. */
  apiKey: string;
  email: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  inspector?: Inspector;
  plan?: { urlQuota?: number; rateLimitPerHour?: number; apiAccess?: boolean };
  now?: () => number;
  counter?: WindowCounter;
  readinessChecks?: ReadinessCheck[];
  /** What the app is given instead of the store itself (e.g. one that hangs), the store staying the test's. */
  storeSeenByApp?: (store: Store) => Store;
  logger?: FastifyServerOptions['logger'];
  countries?: CountryLookup;
  /** The day's visitor sets (Redis in multi-instance tests); in memory by default. */
  visitors?: Visitors;
  /** Live clicks across instances (Redis in multi-instance tests); in-process by default. */
  liveClicks?: LiveClicks;
  /** TXT look-ups that verify domains; none are found by default (tests never query real DNS). */
  resolveTxt?: (name: string) => Promise<string[][]>;
  /** Name look-ups of webhook endpoints; none resolve by default (tests never query real DNS). */
  resolveWebhooks?: Resolver;
  /** When the background work begins; at once by default, as tests inject without listening. */
  background?: AppDeps['background'];
}

/** A resolver that finds no TXT record: unverified domains stay so, and no real DNS is asked. */
async function noTxtRecords(): Promise<string[][]> {
  const error = new Error('no TXT record (test resolver)') as Error & { code: string };
  error.code = 'ENODATA';
  throw error;
}

/** A resolver that finds no name: webhook endpoints are reached by address literals in tests. */
async function noNames(): Promise<never> {
  throw Object.assign(new Error('no such name (test resolver)'), { code: 'ENOTFOUND' });
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = await mkdtemp(join(tmpdir(), 'snip-test-'));
  const file = join(dir, 'snip.db');
  const config = loadConfig({
    BASE_URL: 'https://sn.ip',
    DATABASE_URL: `sqlite:${file}`,
    // No rounds of link health (docs/api.md §21) unless a test asks: they would fetch through its inspector.
    LINK_CHECKS_PER_MINUTE: '0',
    // Two suites sharing two cores can hold a store call past the 2 s default (a reader thread's first
    // start among them), and a 503 is then the right answer; tests of the deadline set their own.
    STORE_TIMEOUT_MS: '10000',
    ...options.env,
  });
  // A copy of a migrated file (template-db.ts), unless the test names a database of its own.
  if (config.databaseUrl === `sqlite:${file}`) await copyMigratedDatabase(file);
  const store = await openStore(config.databaseUrl, { prepare: true });
  const ops = operations(store);
  await ops.savePlan('tester', {
    apiAccess: options.plan?.apiAccess ?? true,
    urlQuota: options.plan?.urlQuota ?? 1000,
    rateLimitPerHour: options.plan?.rateLimitPerHour ?? 1000,
  });
  const email = 'owner@example.com';
  const { apiKey } = await ops.createAccount(email, 'tester');
  const inspector = options.inspector ?? new FakeInspector();
  const app = await buildApp(config, {
    store: options.storeSeenByApp?.(store) ?? store,
    logger: options.logger,
    inspector,
    now: options.now,
    counter: options.counter,
    readinessChecks: options.readinessChecks,
    countries: options.countries,
    visitors: options.visitors,
    liveClicks: options.liveClicks,
    resolveTxt: options.resolveTxt ?? noTxtRecords,
    resolveWebhooks: options.resolveWebhooks ?? noNames,
    background: options.background,
  });
  return {
    app,
    store,
    config,
    ops,
    inspector,
    apiKey,
    email,
    async close() {
      await app.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Record<string, unknown>;
}

export async function send(app: FastifyInstance, options: InjectOptions): Promise<Answer> {
  const response = await app.inject(options);
  let body: Record<string, unknown>;
  try {
    body = response.json();
  } catch {
    body = { raw: response.body };
  }
  return { status: response.statusCode, headers: response.headers, body };
}

/** POST /create with JSON and the key in X-API-Key. */
export function createJson(
  app: FastifyInstance,
  key: string | undefined,
  payload: unknown,
  path = '/create',
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== undefined) headers['x-api-key'] = key;
  return send(app, { method: 'POST', url: path, headers, payload: JSON.stringify(payload) });
}

/** POST /create as a legacy urlencoded form. */
export function createForm(app: FastifyInstance, fields: Record<string, string>, path = '/create') {
  return send(app, {
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** POST /create as multipart/form-data. */
export function createMultipart(app: FastifyInstance, fields: Record<string, string>, path = '/create') {
  const boundary = '----snip-test-boundary';
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return send(app, {
    method: 'POST',
    url: path,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: `${parts.join('')}--${boundary}--\r\n`,
  });
}

/** A store whose named methods never answer, as a database behind a dead network would not. */
export function hangingStore(store: Store, methods: readonly string[]): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof property === 'string' && methods.includes(property)) return () => new Promise(() => {});
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
