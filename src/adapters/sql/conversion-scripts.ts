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
import { addVariantFigures, conversionDays, variantConversions } from './conversion-figures.ts';
import { hears, writeEvent } from './outbox-scripts.ts';
import { type Row, revenueOf } from './rows.ts';
import { lockWorkspace, q, type Script, type ScriptRunner } from './script.ts';

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
const FIRST_LEAD = `SELECT c.click_id, c.link_id, c.variant, c.event_name, k.code, k.domain_id
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
  yield q(
    `INSERT INTO conversion_daily (link_id, workspace_id, day, currency, leads) VALUES (?, ?, ?, '', 1)
     ON CONFLICT (link_id, day, currency) DO UPDATE SET leads = conversion_daily.leads + 1`,
    link.linkId,
    workspaceId,
    dayOf(lead.at),
  );
  yield* addVariantFigures(link, dayOf(lead.at), '', 0);
  yield q('UPDATE links SET leads = leads + 1 WHERE id = ?', link.linkId);
  yield* conversionEvent(sink, workspaceId, 'lead.created', (events) =>
    events.lead({ link, eventName, customerKey, clickId: lead.clickId, at: lead.at, workspaceId }),
  );
  return { kind: 'recorded', created: true, clickId: lead.clickId, link, eventName };
}

function* recordSale(sale: NewSale, sinceDay: string, sink?: ConversionEventSink): Script<SaleResult> {
  const { workspaceId } = sale;
  // One writer per workspace at a time: the link's revenue is read and written back.
  yield lockWorkspace(workspaceId);
  if (sale.invoiceKey !== null) {
    const [before] = yield q(INVOICE_OF, workspaceId, sale.invoiceKey);
    if (before) {
      return {
        kind: 'recorded',
        created: false,
        link: linkOf({ ...before, variant: null }),
        amount: Number(before.amount),
        currency: String(before.currency),
        customerKey: (before.customer_key as string | null) ?? null,
      };
    }
  }
  let link: ConvertedLink | undefined;
  if (sale.customerKey !== null) {
    const [lead] = yield q(FIRST_LEAD, workspaceId, sale.customerKey);
    if (lead) {
      link = linkOf(lead);
      yield q(
        'UPDATE conversion_leads SET used_at = ? WHERE workspace_id = ? AND customer_key = ? AND event_name = ?',
        sale.at,
        workspaceId,
        sale.customerKey,
        String(lead.event_name),
      );
    }
  }
  if (!link && sale.clickId !== null) {
    const [click] = yield q(CLICK_OF, sale.clickId, workspaceId, sinceDay);
    if (!click) return { kind: 'unknown-click' };
    link = linkOf(click);
  }
  if (!link) return { kind: 'no-lead' };
  if (sale.invoiceKey !== null) {
    yield q(
      `INSERT INTO conversion_invoices (workspace_id, invoice_key, link_id, customer_key, amount, currency, at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      workspaceId,
      sale.invoiceKey,
      link.linkId,
      sale.customerKey,
      sale.amount,
      sale.currency,
      sale.at,
    );
  }
  yield q(
    `INSERT INTO conversion_daily (link_id, workspace_id, day, currency, sales, revenue) VALUES (?, ?, ?, ?, 1, ?)
     ON CONFLICT (link_id, day, currency) DO UPDATE
     SET sales = conversion_daily.sales + 1, revenue = conversion_daily.revenue + excluded.revenue`,
    link.linkId,
    workspaceId,
    dayOf(sale.at),
    sale.currency,
    sale.amount,
  );
  yield* addVariantFigures(link, dayOf(sale.at), sale.currency, sale.amount);
  const [row] = yield q('SELECT revenue FROM links WHERE id = ?', link.linkId);
  const revenue = { ...revenueOf(row?.revenue) };
  revenue[sale.currency] = (revenue[sale.currency] ?? 0) + sale.amount;
  yield q(
    'UPDATE links SET sales = sales + 1, revenue = ? WHERE id = ?',
    JSON.stringify(sortedRevenue(revenue)),
    link.linkId,
  );
  const found = link;
  yield* conversionEvent(sink, workspaceId, 'sale.created', (events) =>
    events.sale({
      link: found,
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

function sortedRevenue(revenue: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(revenue).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function* purge(beforeDay: string, beforeMs: number): Script<number> {
  const clicks = yield q('DELETE FROM conversion_clicks WHERE day < ? RETURNING click_id', beforeDay);
  const leads = yield q('DELETE FROM conversion_leads WHERE used_at < ? RETURNING link_id', beforeMs);
  const invoices = yield q('DELETE FROM conversion_invoices WHERE at < ? RETURNING link_id', beforeMs);
  return clicks.length + leads.length + invoices.length;
}

export function conversionStore(runner: ScriptRunner): ConversionStore {
  return {
    addConversionClicks: (clicks) => runner.write(addClicks(clicks)),
    recordLead: (lead, sinceDay, events) => runner.write(recordLead(lead, sinceDay, events)),
    recordSale: (sale, sinceDay, events) => runner.write(recordSale(sale, sinceDay, events)),
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
