import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { get } from 'node:http';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { openStore } from '../../src/adapters/open-store.ts';
import type { Store } from '../../src/core/ports/store.ts';
import { accountOperations } from '../../src/features/workspaces/cli/account-operations.ts';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

/**
 * `snip serve --processes 2` (docs/adr/052): refused where ADR 023 says it cannot be exact, and on
 * PostgreSQL + Redis (TEST_DATABASE_URL, TEST_REDIS_URL; skipped without them) one primary and two
 * workers on one port that keep a limit exactly, answer /metrics for both, replace a killed worker
 * and write every click on SIGTERM.
 */
const databaseUrl = process.env.TEST_DATABASE_URL ?? '';
const redisUrl = process.env.TEST_REDIS_URL ?? '';
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

/** Runs `snip serve --processes 2` until it exits by itself (a refusal exits before it opens anything). */
async function refusedStart(env: Record<string, string | undefined>) {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', 'bin/snip.js', 'serve', '--processes', '2'],
    { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = await once(child, 'exit');
  clearTimeout(timer);
  return { code, stderr };
}

describe('snip serve --processes refused where it cannot be exact', () => {
  it('refuses 2 processes on SQLite with exit 78, naming DATABASE_URL', async () => {
    const { code, stderr } = await refusedStart({ DATABASE_URL: 'sqlite:./data/never-opened.db' });
    assert.equal(code, 78);
    assert.match(stderr, /DATABASE_URL/);
  });

  it('refuses 2 processes without Redis with exit 78, naming REDIS_URL', async () => {
    const { code, stderr } = await refusedStart({
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      REDIS_URL: undefined,
    });
    assert.equal(code, 78);
    assert.match(stderr, /REDIS_URL/);
  });
});

/** Runs the jobs with at most `width` in flight. */
async function pool<T>(jobs: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await (jobs[i] as () => Promise<T>)();
      }
    }),
  );
  return results;
}

/** The value of each series of `name` whose labels include `labels`, by its worker label. */
function byWorker(metrics: string, name: string, labels: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of metrics.split('\n')) {
    if (!line.startsWith(`${name}{`) || !line.includes(labels)) continue;
    const worker = /worker="(\d+)"/.exec(line)?.[1];
    if (worker) found.set(worker, (found.get(worker) ?? 0) + Number(line.split(' ').at(-1)));
  }
  return found;
}

/** The status of a GET sent on a connection of its own. */
function statusOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on('error', reject);
  });
}

const total = (counts: ReadonlyMap<string, number>) => [...counts.values()].reduce((sum, n) => sum + n, 0);

/** What `read` gives once `done` holds of it, or its last answer after 10 s. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

const skip = databaseUrl && redisUrl ? false : 'TEST_DATABASE_URL and TEST_REDIS_URL are not both set';

describe('snip serve --processes 2 on PostgreSQL and Redis', { skip }, () => {
  const name = `snip_procs_${randomBytes(5).toString('hex')}`;
  const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const url = Object.assign(new URL(databaseUrl), { pathname: `/${name}` }).href;
  let store: Store;
  let target: TargetServer;
  let server: ServerProcess;
  const keys: Record<string, string> = {};

  const metrics = async () => {
    const response = await fetch(`${server.url}/metrics`);
    assert.equal(response.status, 200);
    return response.text();
  };

  before(async () => {
    await admin.unsafe(`CREATE DATABASE ${name}`);
    store = await openStore(url, { prepare: true });
    const ops = accountOperations(store);
    await ops.savePlan('limited', { apiAccess: true, urlQuota: 100_000, rateLimitPerHour: 100 });
    await ops.savePlan('roomy', { apiAccess: true, urlQuota: 100_000, rateLimitPerHour: 100_000 });
    keys.limited = (await ops.createAccount('limited@example.com', 'limited')).apiKey;
    keys.roomy = (await ops.createAccount('roomy@example.com', 'roomy')).apiKey;
    target = await startTargetServer();
    server = await startServerProcess({
      PROCESSES: '2',
      DATABASE_URL: url,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `${name}:`,
      ALLOW_PRIVATE_TARGETS: 'true',
      // Clicks are written only at shutdown: what SIGTERM writes is all there is.
      CLICK_FLUSH_MS: '60000',
      BASE_URL: 'https://sn.ip',
    });
    await server.lineMatching(/every worker is listening/);
  });

  after(async () => {
    await server?.stop('SIGKILL');
    await store?.close();
    await target?.close();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  const create = async (key: string, long: string) => {
    const response = await fetch(`${server.url}/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ url: long }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  };

  it('lets one key make exactly its 100 requests per hour over both workers, as /metrics shows', async () => {
    // Windows are clock hours (docs/api.md §2.5): a run that straddled one would rightly get 200.
    const left = 3_600_000 - (Date.now() % 3_600_000);
    if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
    const answers = await pool(
      Array.from(
        { length: 250 },
        (_, i) => () => create(keys.limited as string, target.url(`/title?n=${i}`)),
      ),
      16,
    );
    // Under load a store or Redis call may pass its deadline (503): a let-through create may answer
    // 503, and a request refused 503 before its key was read spends nothing (as in the fleet test).
    const statuses = answers.map((answer) => answer.status);
    assert.deepEqual(
      statuses.filter((status) => ![201, 429, 503].includes(status)),
      [],
    );
    const created = statuses.filter((status) => status === 201).length;
    const unavailable = statuses.filter((status) => status === 503).length;
    assert.ok(created <= 100 && created >= 100 - unavailable, `${created} created, ${unavailable} × 503`);
    // Spent on both workers: more at once (over several connections, handed out in turn) are refused.
    const more = await Promise.all(
      Array.from({ length: 4 }, (_, i) => create(keys.limited as string, target.url(`/title?more=${i}`))),
    );
    assert.deepEqual(new Set(more.map((answer) => answer.status)), new Set([429]));
    // Each answer is counted just after it is sent: the last few may be counted a moment later.
    const served = await until(
      async () => byWorker(await metrics(), 'snip_http_requests_total', 'route="/create"'),
      (counts) => total(counts) === 254,
    );
    assert.deepEqual([...served.keys()].sort(), ['1', '2'], 'both workers answered creates');
    assert.equal(total(served), 254);
  });

  it('replaces a worker killed with SIGKILL, which then serves', async () => {
    const started = await server.lineMatching(/"worker":1,"workerPid":\d+,"msg":"worker started"/);
    const { workerPid } = JSON.parse(started) as { workerPid: number };
    process.kill(workerPid, 'SIGKILL');
    const again = new RegExp(`"worker":1,"workerPid":(?!${workerPid}\\b)\\d+,"msg":"worker started"`);
    const replacement = (JSON.parse(await server.lineMatching(again, 30_000)) as { workerPid: number })
      .workerPid;
    await server.lineMatching(new RegExp(`"pid":${replacement},.*Server listening`), 60_000);
    const text = await metrics();
    assert.match(text, /snip_worker_restarts_total\{worker="1"\} 1\b/);
    assert.match(text, /snip_workers 2\b/);
    // New connections are handed out in turn, so some of these reach the replacement (fetch would
    // reuse the connections it holds to the worker that lived).
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push(await statusOnNewConnection(`${server.url}/healthz`));
    assert.deepEqual(new Set(statuses), new Set([200]));
    // Each answer is counted just after it is sent.
    const health = await until(
      async () => byWorker(await metrics(), 'snip_http_requests_total', 'route="/healthz"'),
      (counts) => (counts.get('1') ?? 0) > 0,
    );
    assert.ok((health.get('1') ?? 0) > 0, 'the replacement in slot 1 answered');
  });

  it('writes every click of both workers when SIGTERM stops them, and exits 0', async () => {
    const created = await create(keys.roomy as string, target.url('/title?clicked'));
    assert.equal(created.status, 201);
    const code = created.body.short_code as string;
    const statuses = await pool(
      Array.from(
        { length: 400 },
        () => () =>
          fetch(`${server.url}/${code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } }).then(
            (response) => response.status,
          ),
      ),
      16,
    );
    // A code new to a worker is read from the store: under load that may answer 503, and is no click.
    assert.deepEqual(
      statuses.filter((status) => ![302, 503].includes(status)),
      [],
    );
    const clicks = statuses.filter((status) => status === 302).length;
    // Each worker holds the link's clicks until it stops.
    const holding = byWorker(await metrics(), 'snip_clicks_pending_links', '');
    assert.deepEqual([...holding.entries()].sort(), [
      ['1', 1],
      ['2', 1],
    ]);
    assert.equal((await store.findLinkByCode(0, code))?.clicks, 0, 'nothing written before the stop');
    assert.equal(await server.stop('SIGTERM'), 0);
    assert.equal((await store.findLinkByCode(0, code))?.clicks, clicks);
  });
});
