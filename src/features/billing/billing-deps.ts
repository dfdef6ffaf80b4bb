import type { PaymentGateway } from '../../core/ports/payments.ts';
import type { BillingSettings } from '../../core/settings.ts';
import type { FrameOf } from '../../web/frame.ts';
import type { WorkspaceDeps } from '../../web/session/workspace-pages.ts';
import type { BillingEventsStore } from './billing-events.ts';
import type { BillingServiceStore } from './billing-service.ts';

/** What the pricing page and billing need (docs/api.md §17), built once by the entries. */
export interface BillingFeatureDeps extends WorkspaceDeps {
  store: BillingEventsStore & BillingServiceStore;
  settings: BillingSettings;
  /** Stripe, when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set; undefined: upgrades are the operator's. */
  payments: PaymentGateway | undefined;
  /** The plan a workspace falls back to when its subscription ends (SIGNUP_PLAN). */
  freePlan: string;
  /** MAIL_FROM, the operator's contact when UPGRADE_URL is not set. */
  mailFrom: string | undefined;
  baseUrl: URL;
  /** SIGNUP: whether a visitor may sign up, or only sign in. */
  signupMode: 'open' | 'invite' | 'closed';
  /** The page frame of whoever is signed in (public pages show it). */
  frameOf: FrameOf;
}
