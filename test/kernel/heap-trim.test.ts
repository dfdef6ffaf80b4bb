import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { describe, it } from 'node:test';
import { trimHeapWhenIdle } from '../../src/kernel/heap-trim.ts';

/** Runs the watcher every 10 ms for `ticks` ticks; answers how often it collected. */
async function collections(connections: number, growthMb: number, ticks: number): Promise<number> {
  const ticked = new EventEmitter();
  let count = 0;
  let seen = 0;
  const stop = trimHeapWhenIdle({
    everyMs: 10,
    idleShare: Number.POSITIVE_INFINITY,
    growthMb,
    connections: async () => {
      queueMicrotask(() => ticked.emit('tick', ++seen));
      return connections;
    },
    collect: () => {
      count++;
    },
  });
  while (seen < ticks) await once(ticked, 'tick');
  stop();
  return count;
}

describe('giving the heap back when idle', () => {
  it('collects once an idle server has no connection, then not again while its memory has not grown', async () => {
    // 1 GB of growth between two collections: the test's process never grows so much.
    assert.equal(await collections(0, 1024, 5), 1);
  });

  it('takes its first look after firstMs, long before its period', async () => {
    const collected = new EventEmitter();
    const stop = trimHeapWhenIdle({
      everyMs: 3_600_000,
      firstMs: 10,
      idleShare: Number.POSITIVE_INFINITY,
      connections: async () => 0,
      collect: () => collected.emit('collected'),
    });
    // The watcher's timers do not hold the process open: the test does, until it collected.
    const open = setInterval(() => {}, 1_000);
    try {
      await once(collected, 'collected');
    } finally {
      clearInterval(open);
      stop();
    }
  });

  it('never collects while a connection is open', async () => {
    assert.equal(await collections(1, 0, 5), 0);
  });
});
