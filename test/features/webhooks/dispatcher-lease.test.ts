/**
 * A delivery is sent once even when its send outlives the claim's lease (docs/adr/051): two
 * dispatchers, as two instances, work off one outbox with a lease of 1.5 s while a loopback receiver
 * holds each answer 4 s. The instance sending keeps renewing its lease (every third of it) until the
 * outcome is recorded, so the other never claims the delivery again meanwhile. On SQLite always, on
 * PostgreSQL when TEST_DATABASE_URL is set. The lease is not shorter: with another suite on two
 * cores, a lease of 500 ms once lapsed between two renewals, a stall of the test's process alone.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import postgres from 'postgres';
import { webhookSender } from '../../../src/adapters/inspect/webhook-sender.ts';
import { openPostgresStore } from '../../../src/adapters/postgres/store.ts';
import { openSqliteStore } from '../../../src/adapters/sqlite/store.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { newEvent, newSigningSecret, TEST_EVENT_TYPE } from '../../../src/core/webhook-events.ts';
import { Dispatcher } from '../../../src/features/webhooks/dispatcher.ts';
import { planInput } from '../../adapters/contract/store-contract.ts';
import { copyMigratedDatabase } from '../../fixtures/template-db.ts';

const LEASE_MS = 1500;
const HOLD_MS = 4000;
const EVENTS = 3;

/** A receiver answering 204 after HOLD_MS, counting the requests of each webhook-id. */
async function slowReceiver() {
  const seen = new Map<string, number>();
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const id = String(req.headers['webhook-id']);
    seen.set(id, (seen.get(id) ?? 0) + 1);
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        res.writeHead(204).end();
        for (const wake of waiters) wake();
      }, HOLD_MS);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    seen,
    /** Resolves once `check` holds, looked at after each answer and then every 20 ms (outcomes follow answers). */
    until: (check: () => Promise<boolean>) =>
      new Promise<void>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`still waiting: ${[...seen]}`)), 20_000);
        let looking = false;
        const look = () => {
          if (looking) return;
          looking = true;
          void check().then((done) => {
            looking = false;
            if (!done) return;
            clearTimeout(deadline);
            clearInterval(every);
            waiters.delete(look);
            resolve();
          }, reject);
        };
        const every = setInterval(look, 20);
        waiters.add(look);
      }),
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Two dispatchers on two stores of one database, racing for EVENTS slow deliveries. */
async function sendsEachOnce(first: Store, second: Store): Promise<void> {
  const receiver = await slowReceiver();
  const sender = webhookSender({ allowPrivate: true, timeoutMs: 10_000 });
  const errors: unknown[] = [];
  const dispatchers = [first, second].map(
    (store) =>
      new Dispatcher({
        store,
        sender,
        retryBaseMs: 60_000,
        policy: { failingForMs: 86_400_000, failuresInRow: 1000 },
        pollMs: 20,
        maxPollMs: 40,
        leaseMs: LEASE_MS,
        onError: () => (error) => errors.push(error),
      }),
  );
  try {
    const plan = await first.upsertPlan(planInput());
    const account = await first.createAccount('ada@example.com', plan.id, null);
    assert.equal(account.kind, 'created');
    if (account.kind !== 'created') return;
    const workspaceId = account.account.workspace.id;
    const endpoint = await first.createEndpoint({
      workspaceId,
      url: receiver.url,
      events: ['link.clicked'],
      description: 'slow',
      secret: newSigningSecret(),
    });
    for (let n = 0; n < EVENTS; n++)
      await first.sendTo(endpoint.id, newEvent(workspaceId, TEST_EVENT_TYPE, { n }, Date.now()));
    for (const dispatcher of dispatchers) dispatcher.start();
    await receiver.until(async () => (await first.pendingDeliveries()) === 0);
    // Three more leases: a lapsed claim would have been taken again and sent by now.
    await new Promise((resolve) => setTimeout(resolve, 3 * LEASE_MS));
    assert.equal(receiver.seen.size, EVENTS);
    assert.deepEqual([...receiver.seen.values()], Array(EVENTS).fill(1), 'each webhook-id sent once');
    const attempts = (await first.listDeliveries(endpoint.id, 0, 10)).map((delivery) => delivery.attempts);
    assert.deepEqual(attempts, Array(EVENTS).fill(1), 'each claimed once');
    assert.deepEqual(errors, []);
  } finally {
    await Promise.all(dispatchers.map((dispatcher) => dispatcher.stop()));
    await sender.close();
    await receiver.close();
  }
}

describe('a send that outlives its lease', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snip-lease-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is sent once on SQLite, its lease renewed while it is under way', async () => {
    const path = join(dir, 'snip.db');
    await copyMigratedDatabase(path);
    const stores = [openSqliteStore(path, { threads: false }), openSqliteStore(path, { threads: false })];
    try {
      for (const store of stores) await store.migrate();
      await sendsEachOnce(stores[0] as Store, stores[1] as Store);
    } finally {
      for (const store of stores) await store.close();
    }
  });

  const databaseUrl = process.env.TEST_DATABASE_URL;
  it('is sent once on PostgreSQL by two instances', {
    skip: databaseUrl ? false : 'TEST_DATABASE_URL is not set',
  }, async () => {
    const admin = postgres(databaseUrl as string, { max: 1, onnotice: () => {} });
    const schema = `snip_test_${randomBytes(6).toString('hex')}`;
    await admin.unsafe(`CREATE SCHEMA "${schema}"`);
    const url = new URL(databaseUrl as string);
    url.searchParams.set('search_path', schema);
    const stores = [openPostgresStore(url.toString()), openPostgresStore(url.toString())];
    try {
      for (const store of stores) await store.migrate();
      await sendsEachOnce(stores[0] as Store, stores[1] as Store);
    } finally {
      for (const store of stores) await store.close();
      await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end({ timeout: 5 });
    }
  });
});
