import type { Group, Link } from '../entities.ts';
import type { EventType, LinkChangeType, NewEvent } from '../webhook-events.ts';

/** Webhook endpoints and the outbox of their deliveries (docs/api.md §14). */

export interface WebhookEndpoint {
  id: number;
  workspaceId: number;
  url: string;
  events: EventType[];
  description: string;
  /** whsec_…; shown to people once, when made or rotated. */
  secret: string;
  enabled: boolean;
  /** Why it is disabled: `failing` (by Snip, after a day of failures) or `manual`. */
  disabled: { reason: 'failing' | 'manual'; at: Date } | null;
  /** The first failed attempt since its last success; null while it succeeds. */
  failingSince: Date | null;
  /** Failed attempts in a row. */
  failures: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewEndpoint {
  workspaceId: number;
  url: string;
  events: readonly EventType[];
  description: string;
  secret: string;
}

/** What an endpoint's admins change; enabling one starts its failure count afresh. */
export interface EndpointChange {
  url?: string;
  events?: readonly EventType[];
  description?: string;
  secret?: string;
  enabled?: boolean;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'cancelled';

/** A delivery as its endpoint's admins see it. */
export interface DeliveryRecord {
  id: number;
  /** The webhook-id. */
  messageId: string;
  type: string;
  state: DeliveryState;
  attempts: number;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** When it is tried next, while pending. */
  nextAt: Date | null;
}

/** A delivery an instance claimed: it alone tries it until `leaseMs` passes. */
export interface ClaimedDelivery {
  id: number;
  messageId: string;
  type: string;
  body: string;
  /** null: the event stream. */
  endpointId: number | null;
  url: string | null;
  secret: string | null;
  /** Attempts made, this one included. */
  attempts: number;
  /** When the event was made (epoch ms). */
  createdAt: number;
}

/** A claim still held: the delivery and the attempt count its claim made. */
export interface HeldDelivery {
  id: number;
  attempt: number;
}

/** How an attempt ended, and what follows: a retry at `retryAt`, or none (null: give up). */
export interface DeliveryOutcome {
  id: number;
  /** The claim's attempt count: an outcome whose claim ran out and was taken again records nothing. */
  attempt: number;
  endpointId: number | null;
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  retryAt: number | null;
}

/** When failures disable an endpoint: failing this long, or this many failed attempts in a row. */
export interface DisablePolicy {
  failingForMs: number;
  failuresInRow: number;
}

/** The link an event is about, as it is inside the change's transaction. */
export interface LinkView {
  link: Link;
  tags: readonly string[];
  group: Group | undefined;
}

/**
 * Turns a change of a link into its event, inside the change's transaction, so the change and its
 * event commit together; the store asks only when an endpoint of the workspace hears the type or
 * the stream is on.
 */
export interface LinkEventSink {
  /** Every event also goes to the operator's stream (EVENTS_AMQP_URL). */
  stream: boolean;
  render(type: LinkChangeType, view: LinkView): NewEvent;
}

/** Click events of one flush, written with its counts. */
export interface ClickNotices {
  events: readonly NewEvent[];
  stream: boolean;
}

export interface WebhookStore {
  createEndpoint(endpoint: NewEndpoint): Promise<WebhookEndpoint>;
  listEndpoints(workspaceId: number): Promise<WebhookEndpoint[]>;
  findEndpoint(workspaceId: number, id: number): Promise<WebhookEndpoint | undefined>;
  updateEndpoint(
    workspaceId: number,
    id: number,
    change: EndpointChange,
  ): Promise<WebhookEndpoint | undefined>;
  /** Removes the endpoint and its deliveries; false when not the workspace's. */
  deleteEndpoint(workspaceId: number, id: number): Promise<boolean>;
  /** Queues an event for one endpoint only (a test event). */
  sendTo(endpointId: number, event: NewEvent): Promise<void>;
  /** Queues one of the endpoint's deliveries again, with the same webhook-id; false when none such. */
  resend(workspaceId: number, endpointId: number, deliveryId: number): Promise<boolean>;
  /** The endpoint's deliveries made since `sinceMs`, newest first, below `beforeId` when given. */
  listDeliveries(
    endpointId: number,
    sinceMs: number,
    limit: number,
    beforeId?: number,
  ): Promise<DeliveryRecord[]>;
  /** Takes up to `limit` due deliveries, each held by this caller for `leaseMs`. */
  claimDeliveries(now: number, limit: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /**
   * Records attempts; an endpoint whose failures meet the policy is disabled (its pending deliveries
   * cancelled) and returned, so its admins are told.
   */
  finishDeliveries(
    outcomes: readonly DeliveryOutcome[],
    now: number,
    policy: DisablePolicy,
  ): Promise<WebhookEndpoint[]>;
  /**
   * Moves the lease of deliveries this caller still holds (the same attempt count as its claim) to
   * `until`; how many it still held.
   */
  renewDeliveries(held: readonly HeldDelivery[], until: number): Promise<number>;
  /** Deliveries waiting, due or not. */
  pendingDeliveries(): Promise<number>;
  /** When the soonest waiting delivery is due (a retry's time or a lease's end), or null when none waits. */
  nextDeliveryAt(): Promise<number | null>;
  /**
   * Calls `onWritten` whenever deliveries are written to the outbox by anyone (PostgreSQL: the
   * `snip_outbox` notification); resolves to what stops it. A store without it is told nothing.
   */
  watchOutbox?(onWritten: () => void): Promise<() => Promise<void>>;
  /** Raised by every change of any endpoint. */
  webhookVersion(): Promise<number>;
  /** Workspaces with an enabled endpoint that hears link.clicked. */
  clickSubscribers(): Promise<number[]>;
  /** Deletes finished deliveries made before `beforeMs`, and events left without any; how many went. */
  purgeDeliveries(beforeMs: number): Promise<number>;
}
