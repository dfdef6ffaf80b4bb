/** Where the outbox's messages go (docs/api.md §14): an endpoint over HTTP, the broker's exchange. */

/** One message as sent: its id stays the same on every retry. */
export interface OutboundMessage {
  id: string;
  type: string;
  /** The exact body, JSON of {type, timestamp, data}. */
  body: string;
}

/** How one attempt went; `ok` only for a 2xx answer within the deadline. */
export interface DeliveryAttempt {
  ok: boolean;
  /** The HTTP status, or null when no answer came (refused, timed out, a blocked address). */
  status: number | null;
  durationMs: number;
  /** Why it failed, for people; never a library's own text or the address dialled. */
  error?: string;
}

/** Sends a signed message to an endpoint's URL, through the target address policy. */
export interface WebhookSender {
  send(url: string, secret: string, message: OutboundMessage): Promise<DeliveryAttempt>;
  close(): Promise<void>;
}

/** Publishes to the broker; resolves once the broker confirmed the message, rejects otherwise. */
export interface EventPublisher {
  publish(message: OutboundMessage): Promise<void>;
  close(): Promise<void>;
}
