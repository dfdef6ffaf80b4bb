/**
 * A payment provider (docs/api.md §17): Stripe through its package (adapters/stripe). It makes a
 * workspace's customer, Checkout and portal sessions, and reads the provider's signed events as
 * what they tell of a workspace's subscription; which plan that means is the billing feature's.
 */

/** What a Checkout session sells: one plan's price, as a subscription, to the workspace's customer. */
export interface CheckoutRequest {
  customerId: string;
  priceId: string;
  workspaceId: number;
  /** The plan's name, kept with the session and its subscription. */
  plan: string;
  successUrl: string;
  cancelUrl: string;
}

export interface NewCustomer {
  workspaceId: number;
  /** The workspace's name, as the provider's dashboard shows it. */
  name: string;
  /** The owner who opened the first checkout. */
  email: string;
  /** The same key again gives the same customer: two checkouts at once make one. */
  onceKey: string;
}

/**
 * How an event stands among a subscription's events: a Checkout completed, the subscription
 * created, updated, deleted. A later kind of the same second is the more final one.
 */
export type SubscriptionStep = 'checkout' | 'created' | 'updated' | 'deleted';

/** What an event tells of a workspace's subscription, each fact as the event gave it (or not). */
export interface SubscriptionNews {
  step: SubscriptionStep;
  /** The workspace as Snip named it to the provider (client_reference_id, metadata): its id, as text. */
  workspaceRef: string | undefined;
  customerId: string | undefined;
  subscriptionId: string | undefined;
  /** The plan's name Snip kept with the session or subscription. */
  planName: string | undefined;
  /** The provider's price of the subscription's (first) item. */
  priceId: string | undefined;
  /**
   * The subscription's status (`active`, `trialing`, `past_due`, `canceled`, `unpaid`, …); a
   * Checkout completed and paid is `active`, one awaiting its payment `incomplete`.
   */
  status: string | undefined;
}

/** A verified event of the provider. */
export interface PaymentEvent {
  id: string;
  type: string;
  /** When the provider made it, in seconds since the epoch. */
  created: number;
  /** Undefined: an event Snip does not act on. */
  news: SubscriptionNews | undefined;
}

/** A webhook whose signature is missing, wrong or too old, or whose body is not an event. */
export class PaymentEventRefused extends Error {
  override name = 'PaymentEventRefused';
}

/** The provider refused a request or could not be reached: nothing was bought or changed. */
export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
}

export interface PaymentGateway {
  /** Which provider it is, for logs and pages. */
  readonly name: string;
  /**
   * Where the provider's own pages may be (content-security-policy sources): a form that leads
   * there through a redirect must be allowed to.
   */
  readonly pageSources: readonly string[];
  /** A new customer for the workspace; its id. */
  createCustomer(customer: NewCustomer): Promise<string>;
  /** A Checkout session; the address the owner pays at. */
  checkout(request: CheckoutRequest): Promise<string>;
  /** A customer portal session; the address the owner manages billing at. */
  portal(customerId: string, returnUrl: string): Promise<string>;
  /** The event of a webhook, verified against its signature header (throws PaymentEventRefused). */
  readEvent(payload: Buffer, signature: string | undefined): PaymentEvent;
}
