import { createHmac, randomFillSync } from 'node:crypto';

/**
 * Conversions (docs/api.md §20): the click id a tracked link's redirect carries to the merchant's
 * site, and the rules of what the merchant reports back (leads, sales). Nothing here identifies a
 * visitor: the id is drawn at random, a customer is known only by an HMAC of the merchant's own id.
 */

/** The query parameter the click id travels in. */
export const CLICK_ID_PARAM = 'snip_id';

/** Random bytes per click id: 18 bytes are 24 characters of base64url (the spec asks 22 or more). */
const ID_BYTES = 18;
const POOL_IDS = 512;
let pool = Buffer.alloc(0);
let next = 0;

/** A fresh click id: 24 characters of [A-Za-z0-9_-], from a pool refilled 512 ids at a time. */
export function newClickId(): string {
  if (next >= pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(ID_BYTES * POOL_IDS));
    next = 0;
  }
  const id = pool.toString('base64url', next, next + ID_BYTES);
  next += ID_BYTES;
  return id;
}

/** The target with `snip_id=<id>` appended to its query, before its fragment. */
export function withClickId(location: string, id: string): string {
  const hash = location.indexOf('#');
  const head = hash < 0 ? location : location.slice(0, hash);
  const tail = hash < 0 ? '' : location.slice(hash);
  const query = head.indexOf('?');
  const joint = query < 0 ? '?' : head.endsWith('?') || head.endsWith('&') ? '' : '&';
  return `${head}${joint}${CLICK_ID_PARAM}=${id}${tail}`;
}

/** What a click id the merchant sends back may look like before it is looked up. */
export const CLICK_ID_MAX = 64;
export const EVENT_NAME_MAX = 100;
export const CUSTOMER_ID_MAX = 200;
export const INVOICE_ID_MAX = 200;
/** Larger amounts (minor units) are refused: every store keeps them exact. */
export const AMOUNT_MAX = 2 ** 53 - 1;
export const DEFAULT_SALE_EVENT = 'Purchase';

/** ISO 4217 alphabetic codes are three capital letters; lower case is taken and raised. */
export function currencyOf(value: string): string | undefined {
  const upper = value.toUpperCase();
  return /^[A-Z]{3}$/.test(upper) ? upper : undefined;
}

/** The only form in which Snip keeps the merchant's customer id: hex HMAC-SHA-256 under the workspace's secret. */
export function customerKey(secret: Buffer, customerId: string): string {
  return createHmac('sha256', secret).update(`customer\n${customerId}`).digest('hex');
}

/** An invoice id is kept the same way, so no id of the merchant's is ever stored as given. */
export function invoiceKey(secret: Buffer, invoiceId: string): string {
  return createHmac('sha256', secret).update(`invoice\n${invoiceId}`).digest('hex');
}

/** Revenue per currency, in minor units. */
export type Revenue = Readonly<Record<string, number>>;

/*
 * Links, their changes and workspaces carry these fields (core/entities.ts is at the house's size
 * limit, so the fields are merged into its interfaces from here; every file sees them).
 */
declare module './entities.ts' {
  interface Link extends LinkConversions {}
  interface LinkGuards extends ConversionGuard {}
  interface Workspace extends WorkspaceConversions {}
}

/** A link's own choice as a change sets it (core/entities.ts LinkGuards). */
export interface ConversionGuard {
  /** null: the workspace's default. */
  trackConversions?: boolean | null;
}

/** A workspace's default for its links (core/entities.ts Workspace). */
export interface WorkspaceConversions {
  trackConversions: boolean;
}

/** What a link holds of conversions (core/entities.ts Link). */
export interface LinkConversions {
  /** Its own choice of conversion tracking; null: the workspace's. */
  trackConversions: boolean | null;
  /** The choice in force: its own, else its workspace's. */
  tracksConversions: boolean;
  /** Leads and sales attributed to it, and revenue per currency. */
  leads: number;
  sales: number;
  revenue: Revenue;
}

/** A click id as kept for the window (docs/api.md §20): the link, the variant, the day and the facts of §9.1. */
export interface ConversionClick {
  clickId: string;
  workspaceId: number;
  linkId: number;
  variant: string | null;
  /** The click's UTC day, YYYY-MM-DD: no finer time is kept. */
  day: string;
  /** The facts of §9.1, or null for a click recorded without them (TRACKING=minimal). */
  facts: ClickFactsRow | null;
}

export interface ClickFactsRow {
  referrer: string;
  country: string;
  device: string;
  os: string;
  browser: string;
  language: string;
  source: string;
}
