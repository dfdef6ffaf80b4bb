import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { openStore } from '../../src/adapters/open-store.ts';
import { accountOperations } from '../../src/features/workspaces/cli/account-operations.ts';
import { startReceiver } from '../fixtures/webhook-receiver.ts';
import { startServerProcess } from './server-process.ts';

/**
 * `snip serve` delivers webhooks from its delivery thread (docs/adr/051): the thread opens the
 * SQLite file for itself, sends the signed test event asked for through the API, records the
 * outcome in the store, and stops with the server. A store that never had an endpoint runs no
 * delivery thread: it starts with the first endpoint (docs/adr/053).
 */

/** The process's worker threads (Node names them so in /proc), on Linux; undefined elsewhere. */
async function workerThreads(pid: number): Promise<number | undefined> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => undefined);
  if (tasks === undefined) return undefined;
  const names = await Promise.all(
    tasks.map((task) => readFile(`/proc/${pid}/task/${task}/comm`, 'utf8').catch(() => '')),
  );
  return names.filter((name) => name.trim() === 'WorkerThread').length;
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
before(async () => {
  receiver = await startReceiver();
});
after(() => receiver.close());

describe('the delivery thread of a server', () => {
  it('sends an event signed, records it delivered, and stops with the server', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'snip-delivery-thread-'));
    const databaseUrl = `sqlite:${join(dir, 'snip.db')}`;
    try {
      const seed = await openStore(databaseUrl, { prepare: true });
      const ops = accountOperations(seed);
      await ops.savePlan('tester', { apiAccess: true, urlQuota: 100, rateLimitPerHour: 1000 });
      const { apiKey } = await ops.createAccount('hooks@example.com', 'tester');
      const server = await startServerProcess({ DATABASE_URL: databaseUrl, ALLOW_PRIVATE_TARGETS: 'true' });
      try {
        const api = (path: string, body: unknown) =>
          fetch(`${server.url}/api/v1${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
            body: JSON.stringify(body),
          });
        // Nothing clicked, read or delivered yet: no worker thread at all (the others start on first use too).
        const pid = server.child.pid as number;
        const before = await workerThreads(pid);
        if (before !== undefined) assert.equal(before, 0);
        const endpoint = await api('/webhooks', { url: receiver.url, events: ['link.created'] });
        assert.equal(endpoint.status, 201);
        const { id, secret } = (await endpoint.json()) as { id: number; secret: string };
        assert.equal((await api(`/webhooks/${id}/test`, {})).status, 202);
        await receiver.until(() => receiver.ofType('webhook.test').length === 1);
        if (before !== undefined) assert.equal(await workerThreads(pid), 1);
        const [one] = receiver.ofType('webhook.test');
        assert.ok(one);
        new Webhook(secret).verify(one.body, one.headers as Record<string, string>);
        const delivered = async () => {
          const answer = await fetch(`${server.url}/api/v1/webhooks/${id}/deliveries`, {
            headers: { 'x-api-key': apiKey },
          });
          const { items } = (await answer.json()) as { items: Array<{ status: string }> };
          return items[0]?.status;
        };
        // The outcome is written by the thread just after the answer: asked until it is.
        for (let tries = 0; (await delivered()) !== 'delivered'; tries++) {
          assert.ok(tries < 100, 'recorded delivered');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        assert.equal(await server.stop('SIGTERM'), 0);
      }
      assert.equal(await seed.pendingDeliveries(), 0);
      await seed.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
