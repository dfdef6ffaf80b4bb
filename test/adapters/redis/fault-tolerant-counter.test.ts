import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { RedisCircuit } from '../../../src/adapters/redis/circuit.ts';
import { FaultTolerantCounter } from '../../../src/adapters/redis/fault-tolerant-counter.ts';
import { RedisWindowCounter } from '../../../src/adapters/redis/window-counter.ts';
import type { Window, WindowCounter } from '../../../src/core/ports/shared-state.ts';

/** Redis is shared state, not a gate: windows are counted by the instance while it does not answer. */

const window: Window = { start: 0, end: 60_000 };

/** A shared counter that answers, or fails, as the test says, and counts what it was asked. */
class SwitchableCounter implements WindowCounter {
  up = true;
  asked = 0;
  readonly #counts = new Map<string, number>();
  async increment(key: string): Promise<number> {
    this.#check();
    const count = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, count);
    return count;
  }
  async peek(key: string): Promise<number> {
    this.#check();
    return this.#counts.get(key) ?? 0;
  }
  async decrement(key: string): Promise<void> {
    this.#check();
    this.#counts.set(key, Math.max(0, (this.#counts.get(key) ?? 0) - 1));
  }
  #check() {
    this.asked++;
    if (!this.up) throw new Error('unreachable');
  }
}

describe('window counters over Redis that may fail', () => {
  it('count in memory while Redis fails, leave Redis alone for a pause, and never add the outage to it', async () => {
    let now = 0;
    const shared = new SwitchableCounter();
    const counter = new FaultTolerantCounter(shared, new RedisCircuit({ pauseMs: 2000, now: () => now }));
    assert.equal(await counter.increment('k', window), 1);
    assert.equal(await counter.increment('k', window), 2);
    shared.up = false;
    // The failing call falls back at once; the ones after it do not ask Redis during the pause.
    assert.equal(await counter.increment('k', window), 1);
    const asked = shared.asked;
    assert.equal(await counter.increment('k', window), 2);
    assert.equal(await counter.peek('k', window), 2);
    assert.equal(shared.asked, asked, 'paused: Redis not asked');
    now += 2000;
    shared.up = true;
    // Back: Redis's count goes on from where it was; the outage's counts were the instance's alone.
    assert.equal(await counter.increment('k', window), 3);
    assert.equal(await counter.peek('k', window), 3);
  });

  it('answer at once from memory when Redis cannot be reached at all', async () => {
    const dead = new Redis({
      port: 1,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
    });
    dead.on('error', () => {});
    try {
      const counter = new FaultTolerantCounter(new RedisWindowCounter(dead, 'x:'), new RedisCircuit());
      assert.equal(await counter.increment('rate:{k}', window), 1);
      assert.equal(await counter.increment('rate:{k}', window), 2);
      await counter.decrement('rate:{k}', window);
      assert.equal(await counter.peek('rate:{k}', window), 1);
    } finally {
      dead.disconnect();
    }
  });
});
