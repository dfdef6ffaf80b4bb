import type { LinkFilter, StatsScope } from '../analytics/model.ts';
import type { ConversionClick, Revenue } from '../conversions.ts';
import type { NewEvent } from '../webhook-events.ts';

/** Conversions (docs/api.md §20) as the store keeps them: click ids, leads, sales, their daily figures. */

/** The link a lead or sale is attributed to, as its answer names it. */
export interface ConvertedLink {
  linkId: number;
  domainId: number;
  code: string;
  variant: string | null;
}

export interface NewLead {
  workspaceId: number;
  clickId: string;
  eventName: string;
  customerKey: string;
  at: number;
}

/** The lead as first recorded; `created` false when the same customer and event came before. */
export type LeadResult =
  | { kind: 'recorded'; created: boolean; clickId: string; link: ConvertedLink; eventName: string }
  | { kind: 'unknown-click' };

export interface NewSale {
  workspaceId: number;
  customerKey: string | null;
  clickId: string | null;
  amount: number;
  currency: string;
  eventName: string;
  invoiceKey: string | null;
  at: number;
}

export type SaleResult =
  | {
      kind: 'recorded';
      created: boolean;
      link: ConvertedLink;
      amount: number;
      currency: string;
      customerKey: string | null;
    }
  | { kind: 'unknown-click' }
  | { kind: 'no-lead' };

/** Renders a lead's or sale's webhook event inside its transaction, when anyone hears it. */
export interface ConversionEventSink {
  stream: boolean;
  lead(view: {
    link: ConvertedLink;
    eventName: string;
    customerKey: string;
    clickId: string;
    at: number;
    workspaceId: number;
  }): NewEvent;
  sale(view: {
    link: ConvertedLink;
    eventName: string;
    customerKey: string | null;
    amount: number;
    currency: string;
    at: number;
    workspaceId: number;
  }): NewEvent;
}

export interface ConversionTotals {
  leads: number;
  sales: number;
  revenue: Revenue;
}

export interface ConversionDay extends ConversionTotals {
  /** UTC day, YYYY-MM-DD. */
  day: string;
}

/** A link's figures of one A/B test variant ('1' to '4'). */
export interface VariantConversions extends ConversionTotals {
  variant: string;
}

export interface ConversionStore {
  /** Keeps a flush's click ids; an id already kept is left as it is. */
  addConversionClicks(clicks: readonly ConversionClick[]): Promise<void>;
  /**
   * Records a lead of a click id of the workspace from `sinceDay` on (the window), once per customer
   * and event: the event commits with it, its figures wait for the next fold (foldConversions).
   */
  recordLead(lead: NewLead, sinceDay: string, events?: ConversionEventSink): Promise<LeadResult>;
  /**
   * Records a sale, attributed to the customer's first lead, else to the click; once per invoice.
   * The event commits with it, its figures wait for the next fold (foldConversions).
   */
  recordSale(sale: NewSale, sinceDay: string, events?: ConversionEventSink): Promise<SaleResult>;
  /**
   * Adds up to `limit` leads and sales not yet in the figures (daily, per variant, the link's
   * counters) to them, oldest first, in one transaction; how many it added (0: none left).
   */
  foldConversions(limit: number): Promise<number>;
  /**
   * Daily figures of a link or a workspace over the range's days, days without any omitted; of a
   * workspace's links that `links` keeps (group, tag, domain) when given.
   */
  conversionDays(
    scope: StatsScope,
    fromDay: string,
    toDay: string,
    links?: LinkFilter,
  ): Promise<ConversionDay[]>;
  /** A link's figures per A/B test variant over the range's days, variants without any omitted. */
  variantConversions(linkId: number, fromDay: string, toDay: string): Promise<VariantConversions[]>;
  /** Sets the workspace's default for its links (a link's own value wins). */
  setWorkspaceTracking(workspaceId: number, track: boolean): Promise<void>;
  /**
   * Deletes what the window no longer needs: click ids of days before `beforeDay`, leads last used
   * and invoices recorded before `beforeMs`; how many rows went.
   */
  purgeConversions(beforeDay: string, beforeMs: number): Promise<number>;
}
