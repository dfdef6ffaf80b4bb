import Stripe from 'stripe';
import {
  type CheckoutRequest,
  type NewCustomer,
  type PaymentEvent,
  PaymentEventRefused,
  type PaymentGateway,
  PaymentProviderError,
} from '../../core/ports/payments.ts';
import type { BillingSettings } from '../../core/settings.ts';
import { paymentEventOf } from './stripe-events.ts';

/**
 * Stripe through the official package (docs/api.md §17), pointed at STRIPE_API_BASE through its
 * host, port and protocol options: tests point it at a Stripe-like server on loopback. Webhooks
 * are verified by the package, with its default tolerance of five minutes.
 */

type StripeSettings = NonNullable<BillingSettings['stripe']>;

/** Long enough for Stripe on a bad day, short enough that an owner's click does not hang. */
const REQUEST_TIMEOUT_MS = 15_000;

function client(settings: StripeSettings): Stripe {
  const { apiBase } = settings;
  const protocol = apiBase.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(settings.secretKey, {
    host: apiBase.hostname,
    port: apiBase.port === '' ? (protocol === 'http' ? 80 : 443) : Number(apiBase.port),
    protocol,
    timeout: REQUEST_TIMEOUT_MS,
    maxNetworkRetries: 1,
    telemetry: false,
    appInfo: { name: 'Snip' },
  });
}

/** A request to Stripe, any failure of it (refused, unreachable, timed out) as one error. */
async function call<T>(what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new PaymentProviderError(`Stripe could not ${what}: ${message}`, { cause: error });
  }
}

const workspaceMetadata = (request: CheckoutRequest) => ({
  workspace_id: String(request.workspaceId),
  plan: request.plan,
});

export function stripeGateway(settings: StripeSettings): PaymentGateway {
  const stripe = client(settings);
  // Checkout and the portal live on Stripe's https hosts (or the operator's own domain for them);
  // an API base of another origin (a test's loopback server) serves them itself.
  const origin = settings.apiBase.origin;
  return {
    name: 'stripe',
    pageSources: origin.startsWith('https:') ? ['https:'] : ['https:', origin],

    async createCustomer(customer: NewCustomer): Promise<string> {
      const made = await call('make a customer', () =>
        stripe.customers.create(
          {
            name: customer.name,
            email: customer.email,
            metadata: { workspace_id: String(customer.workspaceId) },
          },
          { idempotencyKey: customer.onceKey },
        ),
      );
      return made.id;
    },

    async checkout(request: CheckoutRequest): Promise<string> {
      const session = await call('open a Checkout session', () =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: request.customerId,
          line_items: [{ price: request.priceId, quantity: 1 }],
          client_reference_id: String(request.workspaceId),
          metadata: workspaceMetadata(request),
          subscription_data: { metadata: workspaceMetadata(request) },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        }),
      );
      if (!session.url) throw new PaymentProviderError('Stripe opened a Checkout session without an address');
      return session.url;
    },

    async portal(customerId: string, returnUrl: string): Promise<string> {
      const session = await call('open the customer portal', () =>
        stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
      );
      return session.url;
    },

    readEvent(payload: Buffer, signature: string | undefined): PaymentEvent {
      if (signature === undefined || signature === '') throw new PaymentEventRefused('no Stripe-Signature');
      let event: unknown;
      try {
        event = stripe.webhooks.constructEvent(payload, signature, settings.webhookSecret);
      } catch (error) {
        // A wrong or stale signature, or a signed body that is not JSON.
        throw new PaymentEventRefused(error instanceof Error ? error.message : 'unverified', {
          cause: error,
        });
      }
      const read = paymentEventOf(event);
      if (!read) throw new PaymentEventRefused('the signed body is not a Stripe event');
      return read;
    },
  };
}
