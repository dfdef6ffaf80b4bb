import type { PaymentEvent, SubscriptionNews, SubscriptionStep } from '../../core/ports/payments.ts';

/**
 * Stripe's events as what they tell of a workspace's subscription (docs/api.md §17). Bodies are
 * read field by field: a signed event is Stripe's, but its objects vary by API version and by
 * what was expanded, so a missing or odd field is simply unknown, never a crash.
 */

type Fields = Record<string, unknown>;

/** Stripe's ids and types are short; a longer one is not Stripe's. */
const ID_MAX = 255;

const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' && value.length <= ID_MAX ? value : undefined;

/** An id given as is, or inside the expanded object. */
const idOf = (value: unknown): string | undefined => (isFields(value) ? text(value.id) : text(value));

const metadataOf = (object: Fields): Fields => (isFields(object.metadata) ? object.metadata : {});

/** The price of a list's first item (`items` of a subscription, `line_items` of a session). */
function firstPrice(list: unknown): string | undefined {
  if (!isFields(list) || !Array.isArray(list.data)) return undefined;
  const [item] = list.data as unknown[];
  return isFields(item) ? idOf(item.price) : undefined;
}

/**
 * A Checkout session: complete and paid (or needing no payment) is `active`; otherwise what it
 * waits for. An event without either field is taken at its word: it says completed.
 */
function checkoutStatus(session: Fields): string {
  const status = text(session.status);
  const payment = text(session.payment_status);
  if ((status ?? 'complete') !== 'complete') return 'incomplete';
  return payment === undefined || payment === 'paid' || payment === 'no_payment_required'
    ? 'active'
    : 'incomplete';
}

function fromSession(session: Fields, paid: boolean): SubscriptionNews {
  const metadata = metadataOf(session);
  return {
    step: 'checkout',
    workspaceRef: text(session.client_reference_id) ?? text(metadata.workspace_id),
    customerId: idOf(session.customer),
    subscriptionId: idOf(session.subscription),
    planName: text(metadata.plan),
    priceId: firstPrice(session.line_items),
    status: paid ? 'active' : checkoutStatus(session),
  };
}

function fromSubscription(subscription: Fields, step: SubscriptionStep): SubscriptionNews {
  const metadata = metadataOf(subscription);
  return {
    step,
    workspaceRef: text(metadata.workspace_id),
    customerId: idOf(subscription.customer),
    subscriptionId: text(subscription.id),
    planName: text(metadata.plan),
    priceId: firstPrice(subscription.items),
    status: step === 'deleted' ? 'canceled' : text(subscription.status),
  };
}

const SUBSCRIPTION_STEPS: Readonly<Record<string, SubscriptionStep>> = {
  'customer.subscription.created': 'created',
  'customer.subscription.updated': 'updated',
  'customer.subscription.deleted': 'deleted',
};

/** What Snip acts on in an event of this type; undefined for the rest. */
function newsOf(type: string, object: Fields): SubscriptionNews | undefined {
  // A session of another mode (a one-off payment, a setup) sold no plan.
  const subscriptionMode = (object.mode ?? 'subscription') === 'subscription';
  if (type === 'checkout.session.completed') return subscriptionMode ? fromSession(object, false) : undefined;
  // A delayed payment method paid later: the session is paid now.
  if (type === 'checkout.session.async_payment_succeeded')
    return subscriptionMode ? fromSession(object, true) : undefined;
  const step = SUBSCRIPTION_STEPS[type];
  return step ? fromSubscription(object, step) : undefined;
}

/** The event's own fields, or undefined when the body is not an event. */
export function paymentEventOf(event: unknown): PaymentEvent | undefined {
  if (!isFields(event) || !isFields(event.data) || !isFields(event.data.object)) return undefined;
  const id = text(event.id);
  const type = text(event.type);
  const created = event.created;
  if (!id || !type || id.length > ID_MAX || type.length > ID_MAX) return undefined;
  if (typeof created !== 'number' || !Number.isSafeInteger(created) || created < 0) return undefined;
  return { id, type, created, news: newsOf(type, event.data.object) };
}
