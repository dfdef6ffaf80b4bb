import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { openStore } from '../../src/adapters/open-store.ts';
import type { Store } from '../../src/core/ports/store.ts';
import { accountOperations } from '../../src/features/workspaces/cli/account-operations.ts';
import { startTargetServer } from '../fixtures/target-server.ts';
import { startServerProcess } from '../process/server-process.ts';
import { create, visit } from './http-client.ts';

/**
 * SIGKILL in the middle of work (docs/api.md §10): no shutdown, no flush. Every link answered 201
 * must be in the store afterwards; clicks buffered since the last flush are lost, never more and
 * never overcounted: every click sent before a flush the instance reported is kept.
 */

/** The figure of one metric line of /metrics, e.g. `snip_clicks_pending_links 0`. */
async function metric(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.slice(name.length + 1) ?? Number.NaN);
}

/** Until the instance has written every click it took: nothing buffered, nothing being written. */
async function flushed(base: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const pending = await metric(base, 'snip_clicks_pending_links');
    if (pending === 0 && (await metric(base, 'snip_visits_pending')) === 0) return;
    await sleep(20);
  }
  throw new Error('the clicks were not written within 30 s');
}

interface Bed {
  databaseUrl: string;
  cleanup(): Promise<void>;
}

async function sqliteBed(): Promise<Bed> {
  const dir = await mkdtemp(join(tmpdir(), 'snip-kill-'));
  return {
    databaseUrl: `sqlite:${join(dir, 'snip.db')}`,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

async function postgresBed(admin: string): Promise<Bed> {
  const name = `snip_kill_${randomBytes(5).toString('hex')}`;
  const sql = postgres(admin, { max: 1, onnotice: () => {} });
  await sql.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.href,
    async cleanup() {
      await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await sql.end();
    },
  };
}

async function killedDuringWork(kind: string, bed: Bed, report: (line: string) => void): Promise<void> {
  let store: Store | undefined = await openStore(bed.databaseUrl, { prepare: true });
  const target = await startTargetServer();
  try {
    const ops = accountOperations(store);
    await ops.savePlan('roomy', { apiAccess: true, urlQuota: 1_000_000, rateLimitPerHour: 1_000_000 });
    const { apiKey } = await ops.createAccount(`kill-${kind}@example.com`, 'roomy');
    await store.close();
    store = undefined;
    const env = { DATABASE_URL: bed.databaseUrl, ALLOW_PRIVATE_TARGETS: 'true', BASE_URL: 'https://sn.ip' };

    // A burst of creates, killed while more are in flight.
    const server = await startServerProcess(env);
    const acknowledged: string[] = [];
    let running = true;
    const workers = Array.from({ length: 16 }, async (_, w) => {
      for (let n = 0; running; n++) {
        try {
          const answer = await create(server.url, apiKey, target.url(`/title?w=${w}&n=${n}`));
          if (answer.status === 201) acknowledged.push(answer.body.short_code as string);
        } catch {
          return; // the connection died with the process
        }
      }
    });
    while (acknowledged.length < 150) await sleep(20);
    await server.stop('SIGKILL');
    running = false;
    await Promise.all(workers);

    // Clicks: a steady stream of browser visits, killed right after the last one.
    const clicker = await startServerProcess(env);
    const link = await create(clicker.url, apiKey, target.url('/title?clicked'));
    const code = link.body.short_code as string;
    let sent = 0;
    const wave = async () => {
      const visits = await Promise.all(Array.from({ length: 10 }, () => visit(clicker.url, code)));
      sent += visits.filter((status) => status === 302).length;
    };
    const clicking = performance.now();
    for (let i = 0; i < 30; i++) {
      await wave();
      await sleep(50);
    }
    // Every click so far written, as the instance reports; then one more wave, killed at once.
    await flushed(clicker.url);
    const kept = sent;
    await wave();
    const clickMs = performance.now() - clicking;
    await clicker.stop('SIGKILL');

    store = await openStore(bed.databaseUrl, { prepare: true });
    const missing = [];
    for (const created of acknowledged) if (!(await store.findLinkByCode(0, created))) missing.push(created);
    assert.deepEqual(missing, [], `${kind}: acknowledged links missing after SIGKILL`);
    const counted = (await store.findLinkByCode(0, code))?.clicks ?? 0;
    assert.ok(counted <= sent, `${kind}: ${counted} clicks counted of ${sent} sent`);
    assert.ok(kept > 0);
    assert.ok(counted >= kept, `${kind}: ${counted} clicks counted, ${kept} were written before the kill`);
    report(
      `${kind}: ${acknowledged.length} links acknowledged before SIGKILL, ${missing.length} missing; ` +
        `clicks sent ${sent} over ${(clickMs / 1000).toFixed(1)} s, counted ${counted}, lost on SIGKILL ` +
        `${sent - counted} = the last ${(((sent - counted) / sent) * clickMs).toFixed(0)} ms of traffic (flush every 1,000 ms)`,
    );
  } finally {
    await store?.close();
    await target.close();
    await bed.cleanup();
  }
}

/**
 * Each case starts two server processes and runs a burst through each: about 40 s on a busy machine,
 * longer with another suite beside it. The bound is there so a hang fails; it is no figure to meet.
 */
const KILL_TEST_MS = 150_000;

describe('SIGKILL during a create burst', () => {
  it('keeps every acknowledged link on SQLite', { timeout: KILL_TEST_MS }, async (t) => {
    await killedDuringWork('sqlite', await sqliteBed(), (line) => t.diagnostic(line));
  });

  const admin = process.env.TEST_DATABASE_URL;
  it('keeps every acknowledged link on PostgreSQL', {
    timeout: KILL_TEST_MS,
    skip: admin ? false : 'TEST_DATABASE_URL is not set',
  }, async (t) => {
    await killedDuringWork('postgres', await postgresBed(admin as string), (line) => t.diagnostic(line));
  });
});
