/** A payment provider (docs/api.md §17): Stripe through its package (adapters/stripe). */
export interface PaymentGateway {
  /** Which provider it is, for logs and pages. */
  readonly name: string;
}
