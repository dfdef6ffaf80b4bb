import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { connectRedis, type RedisConnections } from '../../../src/adapters/redis/connect.ts';
import { RedisVisitLimits } from '../../../src/adapters/redis/visit-limits.ts';
import { UnavailableError } from '../../../src/core/errors.ts';

/** Visit limits on a real Redis (TEST_REDIS_URL), two connections standing for two instances. */
const url = process.env.TEST_REDIS_URL;

if (!url) {
  describe('Redis visit limits', () => {
    it('runs against Redis', { skip: 'TEST_REDIS_URL is not set' }, () => {});
  });
} else {
  describe('Redis visit limits', () => {
    const prefix = `snip-test-${randomBytes(6).toString('hex')}:`;
    let a: RedisConnections;
    let b: RedisConnections;
    before(async () => {
      a = await connectRedis(url, prefix);
      b = await connectRedis(url, prefix);
    });
    after(async () => {
      const keys = await a.client.keys(`${prefix}*`);
      if (keys.length > 0) await a.client.del(...keys);
      await a.close();
      await b.close();
    });

    it('lets exactly max_clicks visits through, however many instances ask at once', async () => {
      const one = new RedisVisitLimits(a.client, prefix);
      const two = new RedisVisitLimits(b.client, prefix);
      const link = { id: 1, maxClicks: 10, taken: 0 };
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).take(link)));
      assert.equal(answers.filter(Boolean).length, 10);
      assert.equal(await one.exhausted(link), true);
      assert.equal(await two.take(link), false);
      assert.equal(await a.client.get(`${prefix}visits:{1}`), '10');
    });

    it("starts from the store's count, and from the larger of it and a counter left behind", async () => {
      const limits = new RedisVisitLimits(a.client, prefix);
      assert.equal(await limits.take({ id: 2, maxClicks: 5, taken: 4 }), true);
      assert.equal(await limits.take({ id: 2, maxClicks: 5, taken: 4 }), false);
      // A counter at 1 from an earlier limit; the link has had 7 human clicks since.
      await a.client.set(`${prefix}visits:{3}`, '1');
      assert.equal(await limits.exhausted({ id: 3, maxClicks: 8, taken: 7 }), false);
      assert.equal(await limits.take({ id: 3, maxClicks: 8, taken: 7 }), true);
      assert.equal(await limits.take({ id: 3, maxClicks: 8, taken: 7 }), false);
      // A counter ahead of the store's figure (clicks not yet flushed) wins.
      await a.client.set(`${prefix}visits:{4}`, '6');
      assert.equal(await limits.exhausted({ id: 4, maxClicks: 6, taken: 2 }), true);
      assert.ok((await a.client.ttl(`${prefix}visits:{1}`)) > 29 * 86_400);
    });

    it('answers UnavailableError, never a visit, when Redis cannot be reached', async () => {
      const dead = new Redis({
        port: 1,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        enableOfflineQueue: false,
      });
      dead.on('error', () => {});
      try {
        const limits = new RedisVisitLimits(dead, prefix);
        await assert.rejects(limits.take({ id: 5, maxClicks: 3, taken: 0 }), UnavailableError);
        await assert.rejects(limits.exhausted({ id: 5, maxClicks: 3, taken: 0 }), UnavailableError);
      } finally {
        dead.disconnect();
      }
    });
  });
}
