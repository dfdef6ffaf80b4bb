import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { describe, it } from 'node:test';
import { collectWhenIdle } from '../../src/adapters/idle-collect.ts';

/** Its timer does not hold the process open (a thread's exit must not wait on it): a test does. */
async function collection(collected: EventEmitter): Promise<void> {
  const open = setInterval(() => {}, 1_000);
  try {
    await once(collected, 'collected');
  } finally {
    clearInterval(open);
  }
}

/** A watcher over a collector that counts; `collected` fires at each collection. */
function watcher(idleMs: number, growthMb: number) {
  const collected = new EventEmitter();
  let count = 0;
  const idle = collectWhenIdle(idleMs, growthMb, () => {
    count++;
    collected.emit('collected');
  });
  return { idle, collected, count: () => count };
}

describe('a worker thread giving its heap back when idle', () => {
  it('collects once the thread was idle after some work, then not again while its heap has not grown', async () => {
    // 1 GB of growth between two collections: the test's process never grows so much.
    const { idle, collected, count } = watcher(10, 1024);
    idle.busy();
    await collection(collected);
    idle.busy();
    // The second idle period's timer has run by the time one twice as long has.
    await new Promise((resolve) => setTimeout(resolve, 40));
    assert.equal(count(), 1);
  });

  it('waits for the work to stop: each job starts the idle period again', (t) => {
    // The clock is the test's: a loaded machine's late timers cannot make a job look idle.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { idle, count } = watcher(30, 0);
    for (let i = 0; i < 5; i++) {
      idle.busy();
      t.mock.timers.tick(20);
      assert.equal(count(), 0, 'less than the idle period since the last job');
    }
    t.mock.timers.tick(10);
    assert.equal(count(), 1, 'the idle period after the last job');
  });

  it('never collects a thread that did no work', async () => {
    const { count } = watcher(5, 0);
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(count(), 0);
  });
});
