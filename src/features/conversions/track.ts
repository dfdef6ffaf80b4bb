import { randomBytes } from 'node:crypto';
import {
  currencyOf,
  customerKey,
  DEFAULT_SALE_EVENT,
  invoiceKey,
  type Revenue,
} from '../../core/conversions.ts';
import { DAY_MS, dayText } from '../../core/days.ts';
import { Refusal } from '../../core/errors.ts';
import type {
  ConversionEventSink,
  ConversionStore,
  ConvertedLink,
} from '../../core/ports/conversion-store.ts';
import type { SecretStore } from '../../core/ports/store.ts';
import type { LinkOrigins } from '../../core/short-url.ts';
import type { FigureFolds } from './figure-folds.ts';

/** The merchant's reports of what a click led to (docs/api.md §20): leads and sales. */

export interface LeadInput {
  click_id: string;
  event_name: string;
  customer_id: string;
}

export interface SaleInput {
  customer_id?: string;
  click_id?: string;
  amount: number;
  currency: string;
  event_name?: string;
  invoice_id?: string;
}

export interface TrackDeps {
  store: ConversionStore & SecretStore;
  origins: LinkOrigins;
  /** The events of leads and sales (features/webhooks), made in their transactions. */
  sink: () => Promise<ConversionEventSink | undefined>;
  windowDays: number;
  now: () => number;
  /** Adds what was recorded to the figures; awaited before a new lead's or sale's answer. */
  folds: Pick<FigureFolds, 'fold'>;
}

/** An answer and whether it is the first (201) or a repeat of it (200). */
export interface Tracked<T> {
  created: boolean;
  body: T;
}

/** ISO 4217 codes as this Node knows them. */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

export function trackService(deps: TrackDeps) {
  const secrets = new Map<number, Promise<Buffer>>();
  /** Each workspace's own secret, made once by whichever instance asks first, remembered here. */
  const secretOf = (workspaceId: number): Promise<Buffer> => {
    let secret = secrets.get(workspaceId);
    if (!secret) {
      secret = deps.store.secret(`conversions/${workspaceId}`, randomBytes(32));
      secret.catch(() => secrets.delete(workspaceId));
      secrets.set(workspaceId, secret);
    }
    return secret;
  };
  const sinceDay = () => dayText(Math.floor(deps.now() / DAY_MS) - deps.windowDays);
  const linkJson = (link: ConvertedLink) => ({ code: link.code, domain: deps.origins.hostOf(link.domainId) });

  async function lead(workspaceId: number, input: LeadInput) {
    const key = customerKey(await secretOf(workspaceId), input.customer_id);
    const result = await deps.store.recordLead(
      { workspaceId, clickId: input.click_id, eventName: input.event_name, customerKey: key, at: deps.now() },
      sinceDay(),
      await deps.sink(),
    );
    if (result.kind === 'unknown-click') {
      throw new Refusal('321', 'No click of this workspace within the window has that click id.');
    }
    if (result.created) await deps.folds.fold();
    return {
      created: result.created,
      body: {
        click_id: result.clickId,
        link: linkJson(result.link),
        customer_key: key,
        event_name: result.eventName,
      },
    };
  }

  async function sale(workspaceId: number, input: SaleInput) {
    if (input.customer_id === undefined && input.click_id === undefined) {
      throw new Refusal('300', 'Name the customer (customer_id) or the click (click_id).');
    }
    const currency = currencyOf(input.currency);
    if (currency === undefined || !CURRENCIES.has(currency)) {
      throw new Refusal('300', 'currency is an ISO 4217 code of three letters, such as EUR.');
    }
    const secret = await secretOf(workspaceId);
    const key = input.customer_id === undefined ? null : customerKey(secret, input.customer_id);
    const result = await deps.store.recordSale(
      {
        workspaceId,
        customerKey: key,
        clickId: input.click_id ?? null,
        amount: input.amount,
        currency,
        eventName: input.event_name ?? DEFAULT_SALE_EVENT,
        invoiceKey: input.invoice_id === undefined ? null : invoiceKey(secret, input.invoice_id),
        at: deps.now(),
      },
      sinceDay(),
      await deps.sink(),
    );
    if (result.kind === 'unknown-click') {
      throw new Refusal('321', 'No click of this workspace within the window has that click id.');
    }
    if (result.kind === 'no-lead') throw new Refusal('322', 'This customer has no lead; send its click_id.');
    if (result.created) await deps.folds.fold();
    return {
      created: result.created,
      body: {
        link: linkJson(result.link),
        amount: result.amount,
        currency: result.currency,
        customer_key: result.customerKey,
      },
    };
  }

  return { lead, sale };
}

export type TrackService = ReturnType<typeof trackService>;

/** Revenue per currency as the API shows it: [{currency, amount}], by currency. */
export function revenueList(revenue: Revenue): Array<{ currency: string; amount: number }> {
  return Object.entries(revenue)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, amount]) => ({ currency, amount }));
}
