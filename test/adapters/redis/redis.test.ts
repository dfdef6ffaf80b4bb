import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { connectRedis, type RedisConnections } from '../../../src/adapters/redis/connect.ts';
import { RedisDemoLog } from '../../../src/adapters/redis/demo-log.ts';
import { RedisLinkEvents } from '../../../src/adapters/redis/link-events.ts';
import { RedisVisitors } from '../../../src/adapters/redis/visitors.ts';
import { RedisWindowCounter } from '../../../src/adapters/redis/window-counter.ts';
import type { DemoLogEntry } from '../../../src/core/ports/shared-state.ts';
import { windowAt } from '../../../src/core/rate-window.ts';

/** Shared state on a real Redis (TEST_REDIS_URL); each run uses its own key prefix and cleans it up. */
// Empty when unset: the suite below is then skipped.
const url = process.env.TEST_REDIS_URL ?? '';

function entry(n: number): DemoLogEntry {
  return {
    time: new Date(n).toISOString(),
    client: '127.0.0.0/24',
    encoding: 'json',
    fields: { url: `u${n}` },
    status: 201,
    body: {},
  };
}

function nextMessage<T>(subscribe: (handler: (value: T) => void) => void): Promise<T> {
  return new Promise((resolve) => subscribe(resolve));
}

describe('Redis shared state', { skip: url ? false : 'TEST_REDIS_URL is not set' }, () => {
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

  it('shares the day secret and counts each visitor once per link and account across instances', async () => {
    const one = new RedisVisitors(a.client, prefix);
    const two = new RedisVisitors(b.client, prefix);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const [first, second] = await Promise.all([one.secretOf(today), two.secretOf(today)]);
    assert.equal(first?.length, 32);
    assert.deepEqual(first, second);
    assert.notDeepEqual(await one.secretOf(tomorrow), first);
    const seen = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? one : two).add(today, [
          { linkId: 1 + (i % 4 === 0 ? 1 : 0), workspaceId: 9, visitor: `v${i % 10}`.padEnd(16, '0') },
        ]),
      ),
    );
    const flat = seen.flat();
    // v0..v9 on link 1 or 2 (every fourth try on link 2): each pair once, each visitor once per account.
    const pairs = new Set(Array.from({ length: 40 }, (_, i) => `${1 + (i % 4 === 0 ? 1 : 0)}:${i % 10}`));
    assert.equal(flat.filter((first) => first.ofLink).length, pairs.size);
    assert.equal(flat.filter((first) => first.ofWorkspace).length, 10);
    // Kept until an hour after the day ends, then gone with the secret.
    const endsIn = Math.round((Date.parse(`${tomorrow}T01:00:00Z`) - Date.now()) / 1000);
    for (const key of [`l:1`, `a:9`, 'secret']) {
      const ttl = await a.client.ttl(`${prefix}visitors:{${today}}:${key}`);
      assert.ok(Math.abs(ttl - endsIn) <= 5, `${key} ttl ${ttl}, day ends in ${endsIn}`);
    }
  });

  it('counts one window across instances and expires it after the window', async () => {
    const one = new RedisWindowCounter(a.client, prefix);
    const two = new RedisWindowCounter(b.client, prefix);
    const window = windowAt(Date.now(), 3_600_000);
    const counts = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? one : two).increment('rate:{key-1}', window)),
    );
    assert.deepEqual(
      [...counts].sort((x, y) => x - y),
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    assert.equal(await two.peek('rate:{key-1}', window), 200);
    await one.decrement('rate:{key-1}', window);
    assert.equal(await two.peek('rate:{key-1}', window), 199);
    // A counter that does not exist (its window ended) is not started below zero.
    await one.decrement('rate:{key-2}', window);
    assert.equal(await two.peek('rate:{key-2}', window), 0);
    assert.equal(await a.client.exists(`${prefix}rate:{key-2}:${window.start}`), 0);
    assert.equal(await one.peek('rate:{key-2}', window), 0);
    const ttl = await a.client.pttl(`${prefix}rate:{key-1}:${window.start}`);
    assert.ok(ttl > 0 && ttl <= window.end + 60_000 - Date.now() + 1000, `ttl ${ttl}`);
    const next = { start: window.end, end: window.end + 3_600_000 };
    assert.equal(await one.increment('rate:{key-1}', next), 1);
  });

  it('keeps the last 200 demo entries, newest first, and streams them to every instance', async () => {
    const here = await RedisDemoLog.open(a.client, a.subscriber, prefix);
    const there = await RedisDemoLog.open(b.client, b.subscriber, prefix);
    try {
      const heard = nextMessage<DemoLogEntry>((handler) => there.subscribe(handler));
      await here.append(entry(1));
      assert.equal((await heard).fields.url, 'u1');
      for (let i = 2; i <= 205; i++) await here.append(entry(i));
      const recent = await there.recent();
      assert.equal(recent.length, 200);
      assert.equal(recent[0]?.fields.url, 'u205');
      assert.equal(recent[199]?.fields.url, 'u6');
    } finally {
      await here.close();
      await there.close();
    }
  });

  it('tells every instance about a changed link', async () => {
    const here = await RedisLinkEvents.open(a.client, a.subscriber, prefix);
    const there = await RedisLinkEvents.open(b.client, b.subscriber, prefix);
    try {
      here.onChanged(() => {});
      const heard = nextMessage<string>((handler) => there.onChanged(handler));
      await here.changed('Abc1234');
      assert.equal(await heard, 'Abc1234');
    } finally {
      await here.close();
      await there.close();
    }
  });

  it('tells every handler of an instance, not only the last one added', async () => {
    const here = await RedisLinkEvents.open(a.client, a.subscriber, prefix);
    const there = await RedisLinkEvents.open(b.client, b.subscriber, prefix);
    try {
      // The link cache, the domains and the abuse screen each add their own handler.
      const first = nextMessage<string>((handler) => there.onChanged(handler));
      const second = nextMessage<string>((handler) => there.onChanged(handler));
      await here.changed('domains');
      assert.deepEqual(await Promise.all([first, second]), ['domains', 'domains']);
    } finally {
      await here.close();
      await there.close();
    }
  });

  it('fails fast with UnavailableError when Redis is unreachable', async () => {
    const dead = await connectRedis(url, prefix);
    dead.client.disconnect();
    const counter = new RedisWindowCounter(dead.client, prefix);
    await assert.rejects(counter.increment('rate:{key-9}', windowAt(Date.now(), 60_000)), {
      name: 'UnavailableError',
    });
    await dead.close();
  });
});
