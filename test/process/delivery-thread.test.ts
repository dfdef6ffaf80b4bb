import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
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
 * outcome in the store, and stops with the server.
 */

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
        const endpoint = await api('/webhooks', { url: receiver.url, events: ['link.created'] });
        assert.equal(endpoint.status, 201);
        const { id, secret } = (await endpoint.json()) as { id: number; secret: string };
        assert.equal((await api(`/webhooks/${id}/test`, {})).status, 202);
        await receiver.until(() => receiver.ofType('webhook.test').length === 1);
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
