import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { connectRedis, type RedisConnections } from '../../../src/adapters/redis/connect.ts';
import { RedisLiveClicks } from '../../../src/adapters/redis/live-clicks.ts';
import { buildApp } from '../../../src/app.ts';
import { callApi } from '../../fixtures/api-client.ts';
import { SseClient } from '../../fixtures/sse-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import { send, type TestApp } from '../../helper.ts';
import { linkIds } from './stats-seed.ts';

/**
 * Live clicks across two instances sharing a store and Redis (docs/api.md §19): a click recorded on
 * one reaches a stream held on the other; a stream ends after SSE_MAX_SECONDS and when its server
 * closes. Skipped without TEST_REDIS_URL.
 */

const redisUrl = process.env.TEST_REDIS_URL;
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

async function listening(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Lets the event loop run until `done` holds: a message from Redis is being waited for, not a time. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

for (const kind of STORES) {
  const skip = kind.skip || (redisUrl ? false : 'TEST_REDIS_URL is not set');
  describe(`live clicks across instances (${kind.name})`, { skip }, () => {
    let a: TestApp;
    let b: FastifyInstance;
    let baseA: string;
    let baseB: string;
    const redis: RedisConnections[] = [];
    let liveA: RedisLiveClicks;

    before(async () => {
      const prefix = `snip-test-${randomBytes(4).toString('hex')}:`;
      for (let i = 0; i < 2; i++) redis.push(await connectRedis(redisUrl as string, prefix));
      const [ra, rb] = redis as [RedisConnections, RedisConnections];
      liveA = await RedisLiveClicks.open(ra.client, ra.subscriber, prefix);
      const liveB = await RedisLiveClicks.open(rb.client, rb.subscriber, prefix);
      // A ends its streams after a second (SSE_MAX_SECONDS=1); B keeps them for the default.
      a = await kind.start({ liveClicks: liveA, env: { SSE_MAX_SECONDS: '1' } });
      b = await buildApp({ ...a.config, sseMaxSeconds: 600 }, { store: a.store, liveClicks: liveB });
      baseA = await listening(a.app);
      baseB = await listening(b);
    });
    after(async () => {
      await b?.close();
      await a?.close();
      for (const connections of redis) await connections.close();
    });

    it('hands a click recorded on one instance to a stream held on the other', async () => {
      const made = await callApi(a.app, 'POST', '/links', {
        key: a.apiKey,
        body: { url: 'https://example.com/fleet', slug: 'fleet' },
      });
      assert.equal(made.status, 201);
      const { workspaceId } = await linkIds(a.store, 'fleet');
      const client = await SseClient.open(`${baseB}/api/v1/stats/live`, { 'x-api-key': a.apiKey });
      assert.equal(client.status, 200);
      // B says on Redis that it listens; A publishes the workspace's clicks once it has heard so.
      await until(() => liveA.heard(workspaceId));
      assert.equal(
        (await send(a.app, { method: 'GET', url: '/fleet', headers: { 'user-agent': CHROME } })).status,
        302,
      );
      await a.app.clicks.flush();
      const event = await client.next('click');
      assert.equal(JSON.parse(event.data).code, 'fleet');
      assert.equal(JSON.parse(event.data).domain, 'sn.ip');
      client.close();
    });

    it('ends a stream after SSE_MAX_SECONDS, and its place is free again', async () => {
      const client = await SseClient.open(`${baseA}/api/v1/stats/live`, { 'x-api-key': a.apiKey });
      assert.equal(client.status, 200);
      await client.ended;
      const streams = Array.from({ length: 5 }, () =>
        SseClient.open(`${baseA}/api/v1/stats/live`, { 'x-api-key': a.apiKey }),
      );
      for (const stream of await Promise.all(streams)) {
        assert.equal(stream.status, 200);
        stream.close();
      }
    });

    it('ends its streams when the server closes', async () => {
      const client = await SseClient.open(`${baseB}/api/v1/stats/live`, { 'x-api-key': a.apiKey });
      assert.equal(client.status, 200);
      await b.close();
      await client.ended;
    });
  });
}
