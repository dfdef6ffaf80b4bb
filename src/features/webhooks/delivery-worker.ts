import { parentPort, workerData } from 'node:worker_threads';
import type { WebhookEndpoint } from '../../core/ports/webhook-store.ts';
import { openDeliveryPorts } from '../../kernel/delivery-ports.ts';
import { Dispatcher } from './dispatcher.ts';
import { disablePolicy } from './retry-schedule.ts';

/**
 * The webhooks' delivery thread (delivery-thread.ts): its own store connection, sender and
 * publisher, and the dispatcher, so signing, sending and the outbox's claims and outcomes never
 * take the redirect's thread. It tells the main thread the outbox's count, the attempts made (summed,
 * at most once a second), the endpoints it disabled, and its failures.
 */

export interface DeliveryThreadData {
  databaseUrl: string;
  allowPrivate: boolean;
  amqpUrl: string | undefined;
  retryBaseMs: number;
  pollMs: number | undefined;
}

/** What the thread tells the main thread. */
export type DeliveryNews =
  | { kind: 'ready' }
  | { kind: 'pending'; count: number }
  | { kind: 'attempts'; counts: Record<string, number> }
  | { kind: 'disabled'; endpoint: WebhookEndpoint }
  | { kind: 'error'; what: string; message: string }
  | { kind: 'stopped' };

/** What the main thread tells it. */
export type DeliveryOrder = { kind: 'wake' } | { kind: 'stop'; graceMs: number };

const data = workerData as DeliveryThreadData;
const tell = (news: DeliveryNews) => parentPort?.postMessage(news);
const failed = (what: string) => (error: unknown) =>
  tell({ kind: 'error', what, message: error instanceof Error ? error.message : String(error) });

const ports = await openDeliveryPorts({
  databaseUrl: data.databaseUrl,
  allowPrivate: data.allowPrivate,
  amqpUrl: data.amqpUrl,
  onStreamError: failed('the event stream failed; its events wait in the outbox'),
});

let counts: Record<string, number> = {};
let telling: NodeJS.Timeout | undefined;
const dispatcher = new Dispatcher({
  store: ports.store,
  sender: ports.sender,
  publisher: ports.publisher,
  retryBaseMs: data.retryBaseMs,
  policy: disablePolicy(data.retryBaseMs),
  pollMs: data.pollMs,
  onPending: (count) => tell({ kind: 'pending', count }),
  onAttempt: (sink, attempt) => {
    const key = `${sink}:${attempt.ok ? 'delivered' : 'failed'}`;
    counts[key] = (counts[key] ?? 0) + 1;
    telling ??= setTimeout(() => {
      telling = undefined;
      tell({ kind: 'attempts', counts });
      counts = {};
    }, 1000);
  },
  onDisabled: (endpoint) => tell({ kind: 'disabled', endpoint }),
  onError: failed,
});

parentPort?.on('message', (order: DeliveryOrder) => {
  if (order.kind === 'wake') dispatcher.wake();
  else
    void (async () => {
      await dispatcher.stop(order.graceMs);
      clearTimeout(telling);
      if (Object.keys(counts).length > 0) tell({ kind: 'attempts', counts });
      await ports.close().catch(failed('closing the delivery thread failed'));
      tell({ kind: 'stopped' });
      parentPort?.close();
    })();
});
dispatcher.start();
tell({ kind: 'ready' });
