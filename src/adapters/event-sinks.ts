import { amqpPublisher } from './amqp/event-publisher.ts';
import { reachCheck } from './inspect/reach-check.ts';
import type { Resolver } from './inspect/types.ts';
import { webhookSender } from './inspect/webhook-sender.ts';

/**
 * Where events go (docs/api.md §14): endpoints over HTTP through the target address policy, and
 * the operator's RabbitMQ when EVENTS_AMQP_URL is set; and the check of an endpoint's URL.
 */
export function eventSinks(options: {
  allowPrivate: boolean;
  amqpUrl: string | undefined;
  /** Name look-ups; the system resolver by default. */
  resolve?: Resolver;
  onStreamError: (error: unknown) => void;
}) {
  const { allowPrivate, amqpUrl, resolve } = options;
  const sender = webhookSender({ allowPrivate, resolve });
  const publisher = amqpUrl ? amqpPublisher({ url: amqpUrl, onError: options.onStreamError }) : undefined;
  return {
    sender,
    publisher,
    mayReach: reachCheck({ allowPrivate, resolve }),
    async close(): Promise<void> {
      await Promise.all([sender.close(), publisher?.close()]);
    },
  };
}
