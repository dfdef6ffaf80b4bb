import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { WebhookEndpoint } from '../../core/ports/webhook-store.ts';
import type { DeliveryNews, DeliveryOrder, DeliveryThreadData } from './delivery-worker.ts';

export interface DeliveryThreadOptions extends DeliveryThreadData {
  onPending: (count: number) => void;
  onAttempts: (sink: 'endpoint' | 'stream', outcome: 'delivered' | 'failed', count: number) => void;
  onDisabled: (endpoint: WebhookEndpoint) => void;
  onError: (what: string) => (error: unknown) => void;
}

/** How long a thread that does not answer a stop is given before it is ended. */
const STOP_SLACK_MS = 500;
/** How long after a thread ended by a failure (its store unreachable at start, say) another starts. */
const RESTART_AFTER_MS = 5000;

/**
 * The dispatcher in a worker thread (delivery-worker.ts), as the server runs it: the same start,
 * wake and stop as a Dispatcher on this thread, with only a message per wake left here. The thread
 * (an isolate and a store connection of its own, ~40 MB) is spawned by the first wake after start:
 * a server whose store never had an endpoint or a stream has nothing to deliver (docs/adr/053).
 */
export function deliveryThread(options: DeliveryThreadOptions) {
  const { onPending, onAttempts, onDisabled, onError, ...data } = options;
  let worker: Worker | undefined;
  let armed = false;
  let restart: NodeJS.Timeout | undefined;
  const hear = (news: DeliveryNews) => {
    if (news.kind === 'pending') onPending(news.count);
    else if (news.kind === 'disabled') onDisabled(news.endpoint);
    else if (news.kind === 'error') onError(news.what)(new Error(news.message));
    else if (news.kind === 'attempts')
      for (const [key, count] of Object.entries(news.counts)) {
        const [sink, outcome] = key.split(':') as ['endpoint' | 'stream', 'delivered' | 'failed'];
        onAttempts(sink, outcome, count);
      }
  };
  const spawn = (): void => {
    const started = new Worker(new URL('./delivery-worker.ts', import.meta.url), {
      workerData: data satisfies DeliveryThreadData,
    });
    worker = started;
    started.on('message', hear);
    started.on('error', onError('the webhook delivery thread failed; another starts in 5 s'));
    started.on('exit', () => {
      // Ended without being asked (stop() forgets it first): what it held is claimed again later.
      if (worker !== started) return;
      worker = undefined;
      restart = setTimeout(() => {
        restart = undefined;
        spawn();
      }, RESTART_AFTER_MS);
      restart.unref();
    });
    // The thread's timers never hold the process open: a server stops it before it exits.
    started.unref();
  };
  return {
    /** Ready to deliver: the thread starts with the first wake (it looks at the outbox as it starts). */
    start(): void {
      armed = true;
    },
    wake(): void {
      if (worker) worker.postMessage({ kind: 'wake' } satisfies DeliveryOrder);
      else if (armed && restart === undefined) spawn();
    },
    async stop(graceMs = 1000): Promise<void> {
      armed = false;
      clearTimeout(restart);
      const running = worker;
      worker = undefined;
      if (!running) return;
      const exited = once(running, 'exit').catch(() => undefined);
      running.postMessage({ kind: 'stop', graceMs } satisfies DeliveryOrder);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, 2 * graceMs + STOP_SLACK_MS);
      });
      await Promise.race([exited, late]);
      clearTimeout(timer);
      await running.terminate();
    },
  };
}
