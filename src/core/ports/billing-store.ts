/**
 * What a workspace pays through (docs/api.md §17): its Stripe customer and subscription, and the
 * Stripe events already handled. Both adapters implement it (adapters/sql/billing-scripts.ts).
 */

export interface WorkspaceBilling {
  customerId: string | null;
  subscriptionId: string | null;
  /** The subscription's status as Stripe last said it (`active`, `past_due`, `canceled`, …). */
  status: string | null;
}

/** What a billing event changes of a workspace: given fields only. */
export interface BillingChange {
  workspaceId: number;
  planId?: number;
  customerId?: string;
  subscriptionId?: string | null;
  status?: string | null;
}

export interface BillingEvent {
  /** Stripe's event id (`evt_…`). */
  id: string;
  type: string;
  /**
   * Where the event stands among the workspace's billing events (its creation time, then how final
   * its kind is): a change older than the last one applied is not applied.
   */
  order: number;
}

/** `applied`: the change is made; `duplicate`: the event was handled before; `stale`: a later one already was. */
export type BillingEventResult = 'applied' | 'duplicate' | 'stale';

export interface BillingStore {
  billingOf(workspaceId: number): Promise<WorkspaceBilling | undefined>;
  /** The workspace whose Stripe customer this is. */
  workspaceOfCustomer(customerId: string): Promise<number | undefined>;
  /** Remembers the workspace's Stripe customer (made once, at its first checkout). */
  setStripeCustomer(workspaceId: number, customerId: string): Promise<void>;
  /**
   * Handles one event in one transaction: records its id (a second time: `duplicate`, nothing
   * changes), then makes `change` unless the workspace already took an event of a higher order
   * (`stale`). Without a change the event is only recorded.
   */
  applyBillingEvent(
    event: BillingEvent,
    change: BillingChange | undefined,
    now: number,
  ): Promise<BillingEventResult>;
}
