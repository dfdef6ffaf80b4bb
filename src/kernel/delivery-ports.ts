import { eventSinks } from '../adapters/event-sinks.ts';
import { openStore } from '../adapters/open-store.ts';
import type { EventPublisher, WebhookSender } from '../core/ports/event-sinks.ts';
import type { WebhookStore } from '../core/ports/webhook-store.ts';

/** What the webhooks' delivery thread opens for itself (features/webhooks/delivery-worker.ts). */
export interface DeliveryPortsOptions {
  databaseUrl: string;
  allowPrivate: boolean;
  amqpUrl: string | undefined;
  onStreamError: (error: unknown) => void;
}

/**
 * The store of DATABASE_URL opened again on the calling thread (SQLite: a connection of its own, no
 * threads of its own; PostgreSQL: a small pool of its own), the webhook sender and the stream's
 * publisher; all closed together.
 */
export async function openDeliveryPorts(options: DeliveryPortsOptions): Promise<{
  store: WebhookStore;
  sender: WebhookSender;
  publisher: EventPublisher | undefined;
  close(): Promise<void>;
}> {
  const store = await openStore(options.databaseUrl, { prepare: false, threads: false });
  const sinks = eventSinks({
    allowPrivate: options.allowPrivate,
    amqpUrl: options.amqpUrl,
    onStreamError: options.onStreamError,
  });
  return {
    store,
    sender: sinks.sender,
    publisher: sinks.publisher,
    async close() {
      await sinks.close();
      await store.close();
    },
  };
}
