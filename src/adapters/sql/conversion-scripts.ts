/** Conversions on either dialect (core/ports/conversion-store.ts, docs/api.md §20). */
import type { ConversionClick } from '../../core/conversions.ts';
import { DAY_MS, dayText } from '../../core/days.ts';
import type {
  ConversionEventSink,
  ConversionStore,
  ConvertedLink,
  LeadResult,
  NewLead,
  NewSale,
  SaleResult,
} from '../../core/ports/conversion-store.ts';
import type { NewEvent } from '../../core/webhook-events.ts';
import { conversionDays, variantConversions } from './conversion-figures.ts';
import { addPending, fold } from './conversion-fold.ts';
import { hears, writeEvent } from './outbox-scripts.ts';
import type { Row } from './rows.ts';
import { q, type Script, type ScriptRunner } from './script.ts';

const CLICKS_PER_STATEMENT = 100;
const CLICK_COLUMNS =
  'click_id, workspace_id, link_id, variant, day, referrer, country, device, os, browser, language, source';

function* addClicks(clicks: readonly ConversionClick[]): Script<void> {
  for (let start = 0; start < clicks.length; start += CLICKS_PER_STATEMENT) {
    const part = clicks.slice(start, start + CLICKS_PER_STATEMENT);
    yield q(
      `INSERT INTO conversion_clicks (${CLICK_COLUMNS})
       VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')} ON CONFLICT DO NOTHING`,
      ...part.flatMap((click) => {
        const f = click.facts;
        return [
          click.clickId,
          click.workspaceId,
          click.linkId,
          click.variant,
          click.day,
          f?.referrer ?? null,
          f?.country ?? null,
          f?.device ?? null,
          f?.os ?? null,
          f?.browser ?? null,
          f?.language ?? null,
          f?.source ?? null,
        ];
      }),
    );
  }
}

const linkOf = (row: Row): ConvertedLink => ({
  linkId: Number(row.link_id),
  domainId: Number(row.domain_id ?? 0),
  code: String(row.code),
  variant: (row.variant as string | null) ?? null,
});

const LEAD_OF = `SELECT c.click_id, c.link_id, c.variant, c.event_name, k.code, k.domain_id
  FROM conversion_leads c JOIN links k ON k.id = c.link_id
  WHERE c.workspace_id = ? AND c.customer_key = ? AND c.event_name = ?`;
/** The customer's first lead: its sales are attributed to that lead's link. */
const FIRST_LEAD = `SELECT c.click_id, c.link_id, c.variant, c.event_name, c.used_at, k.code, k.domain_id
  FROM conversion_leads c JOIN links k ON k.id = c.link_id
  WHERE c.workspace_id = ? AND c.customer_key = ? ORDER BY c.at, c.event_name LIMIT 1`;
const CLICK_OF = `SELECT c.link_id, c.variant, k.code, k.domain_id
  FROM conversion_clicks c JOIN links k ON k.id = c.link_id
  WHERE c.click_id = ? AND c.workspace_id = ? AND c.day >= ?`;
const INVOICE_OF = `SELECT i.link_id, i.customer_key, i.amount, i.currency, k.code, k.domain_id
  FROM conversion_invoices i JOIN links k ON k.id = i.link_id
  WHERE i.workspace_id = ? AND i.invoice_key = ?`;
const SUBSCRIBED = `SELECT 1 AS one FROM webhook_endpoints
  WHERE workspace_id = ? AND enabled = true AND events LIKE ? LIMIT 1`;

/** The event of a lead or sale, written in its transaction when an endpoint hears it or the stream is on. */
function* conversionEvent(
  sink: ConversionEventSink | undefined,
  workspaceId: number,
  type: 'lead.created' | 'sale.created',
  render: (sink: ConversionEventSink) => NewEvent,
): Script<void> {
  if (!sink) return;
  if (!sink.stream && (yield q(SUBSCRIBED, workspaceId, hears(type))).length === 0) return;
  yield* writeEvent(render(sink), sink.stream);
}

const dayOf = (at: number) => dayText(Math.floor(at / DAY_MS));

function* recordLead(lead: NewLead, sinceDay: string, sink?: ConversionEventSink): Script<LeadResult> {
  const { workspaceId, customerKey, eventName } = lead;
  const first = (row: Row): LeadResult => ({
    kind: 'recorded',
    created: false,
    clickId: String(row.click_id),
    link: linkOf(row),
    eventName: String(row.event_name),
  });
  const [before] = yield q(LEAD_OF, workspaceId, customerKey, eventName);
  if (before) return first(before);
  const [click] = yield q(CLICK_OF, lead.clickId, workspaceId, sinceDay);
  if (!click) return { kind: 'unknown-click' };
  const link = linkOf(click);
  const inserted = yield q(
    `INSERT INTO conversion_leads
     (workspace_id, customer_key, event_name, click_id, link_id, variant, at, used_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING click_id`,
    workspaceId,
    customerKey,
    eventName,
    lead.clickId,
    link.linkId,
    link.variant,
    lead.at,
    lead.at,
  );
  if (inserted.length === 0) {
    // Another request recorded the same lead meanwhile: its answer is the first.
    const [other] = yield q(LEAD_OF, workspaceId, customerKey, eventName);
    if (other) return first(other);
  }
  yield* addPending(link, workspaceId, dayOf(lead.at), '', 0);
  yield* conversionEvent(sink, workspaceId, 'lead.created', (events) =>
    events.lead({ link, eventName, customerKey, clickId: lead.clickId, at: lead.at, workspaceId }),
  );
  return { kind: 'recorded', created: true, clickId: lead.clickId, link, eventName };
}

/**
 * The link a sale goes to: its customer's first lead's (whose last use is renewed, at most once a
 * day: the window counts in days), else its click id's.
 */
function* attribute(sale: NewSale, sinceDay: string): Script<ConvertedLink | 'unknown-click' | 'no-lead'> {
  if (sale.customerKey !== null) {
    const [lead] = yield q(FIRST_LEAD, sale.workspaceId, sale.customerKey);
    if (lead) {
      if (sale.at - Number(lead.used_at) >= DAY_MS) {
        yield q(
          'UPDATE conversion_leads SET used_at = ? WHERE workspace_id = ? AND customer_key = ? AND event_name = ?',
          sale.at,
          sale.workspaceId,
          sale.customerKey,
          String(lead.event_name),
        );
      }
      return linkOf(lead);
    }
  }
  if (sale.clickId === null) return 'no-lead';
  const [click] = yield q(CLICK_OF, sale.clickId, sale.workspaceId, sinceDay);
  return click ? linkOf(click) : 'unknown-click';
}

function* recordSale(sale: NewSale, sinceDay: string, sink?: ConversionEventSink): Script<SaleResult> {
  const { workspaceId } = sale;
  const first = (row: Row): SaleResult => ({
    kind: 'recorded',
    created: false,
    link: linkOf({ ...row, variant: null }),
    amount: Number(row.amount),
    currency: String(row.currency),
    customerKey: (row.customer_key as string | null) ?? null,
  });
  const link = yield* attribute(sale, sinceDay);
  if (typeof link === 'string') {
    // A retry of an invoice whose lead or click id has gone since still gets its first answer.
    const [before] = sale.invoiceKey === null ? [] : yield q(INVOICE_OF, workspaceId, sale.invoiceKey);
    return before ? first(before) : { kind: link };
  }
  if (sale.invoiceKey !== null) {
    // The same invoice sent twice at once: the second waits for the first's row, inserts nothing
    // and answers the first's answer.
    const inserted = yield q(
      `INSERT INTO conversion_invoices (workspace_id, invoice_key, link_id, customer_key, amount, currency, at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING link_id`,
      workspaceId,
      sale.invoiceKey,
      link.linkId,
      sale.customerKey,
      sale.amount,
      sale.currency,
      sale.at,
    );
    if (inserted.length === 0) {
      const [other] = yield q(INVOICE_OF, workspaceId, sale.invoiceKey);
      if (other) return first(other);
    }
  }
  // The figures are added by the next fold (conversion-fold.ts), not by each sale.
  yield* addPending(link, workspaceId, dayOf(sale.at), sale.currency, sale.amount);
  yield* conversionEvent(sink, workspaceId, 'sale.created', (events) =>
    events.sale({
      link,
      eventName: sale.eventName,
      customerKey: sale.customerKey,
      amount: sale.amount,
      currency: sale.currency,
      at: sale.at,
      workspaceId,
    }),
  );
  return {
    kind: 'recorded',
    created: true,
    link,
    amount: sale.amount,
    currency: sale.currency,
    customerKey: sale.customerKey,
  };
}

function* purge(beforeDay: string, beforeMs: number): Script<number> {
  const clicks = yield q('DELETE FROM conversion_clicks WHERE day < ? RETURNING click_id', beforeDay);
  const leads = yield q('DELETE FROM conversion_leads WHERE used_at < ? RETURNING link_id', beforeMs);
  const invoices = yield q('DELETE FROM conversion_invoices WHERE at < ? RETURNING link_id', beforeMs);
  return clicks.length + leads.length + invoices.length;
}

/**
 * `batched` writes leads and sales in batches of their own where the runner's writes are not
 * already (PostgreSQL: postgres/batched-writes.ts; SQLite's write queue batches every write).
 */
export function conversionStore(
  runner: ScriptRunner,
  skipLocked: boolean,
  batched: <T>(make: () => Script<T>) => Promise<T> = (make) => runner.write(make()),
): ConversionStore {
  return {
    addConversionClicks: (clicks) => runner.write(addClicks(clicks)),
    recordLead: (lead, sinceDay, events) => batched(() => recordLead(lead, sinceDay, events)),
    recordSale: (sale, sinceDay, events) => batched(() => recordSale(sale, sinceDay, events)),
    foldConversions: (limit) => runner.write(fold(limit, skipLocked)),
    conversionDays: (scope, fromDay, toDay, links) =>
      runner.read(conversionDays(scope, fromDay, toDay, links)),
    variantConversions: (linkId, fromDay, toDay) => runner.read(variantConversions(linkId, fromDay, toDay)),
    setWorkspaceTracking: (workspaceId, track) =>
      runner.write(
        (function* () {
          yield q('UPDATE workspaces SET track_conversions = ? WHERE id = ?', track ? 1 : 0, workspaceId);
        })(),
      ),
    purgeConversions: (beforeDay, beforeMs) => runner.write(purge(beforeDay, beforeMs)),
  };
}
