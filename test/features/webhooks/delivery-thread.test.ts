import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deliveryThread } from '../../../src/features/webhooks/delivery-thread.ts';

/**
 * The delivery thread that cannot open its store (docs/adr/051) says so on the main thread, where
 * it is logged, and is started again later rather than leaving the server without deliveries; a
 * stop meanwhile ends that. The thread is spawned by the first wake after start (docs/adr/053).
 */
describe('a delivery thread that cannot open its store', () => {
  it('reports the failure on the main thread, and stops', async () => {
    const failures: string[] = [];
    let told: () => void = () => {};
    const reported = new Promise<void>((resolve) => {
      told = resolve;
    });
    const thread = deliveryThread({
      databaseUrl: 'nosuch:store',
      allowPrivate: false,
      amqpUrl: undefined,
      retryBaseMs: 5000,
      pollMs: undefined,
      onPending: () => {},
      onAttempts: () => {},
      onDisabled: () => {},
      onError: (what) => () => {
        failures.push(what);
        told();
      },
    });
    thread.start();
    // Started, the thread is only armed: nothing is spawned until something may be delivered.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(failures, []);
    thread.wake();
    await reported;
    assert.deepEqual(failures, ['the webhook delivery thread failed; another starts in 5 s']);
    await thread.stop(100);
    thread.wake(); // a wake after the stop reaches no thread and throws nothing
  });
});
