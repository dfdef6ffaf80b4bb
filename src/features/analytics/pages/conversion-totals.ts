import type { StatsAnswer } from '../../../core/analytics/stats.ts';
import { html, type SafeHtml } from '../../../web/html.ts';

/** Revenue in minor units as people read it: 12345 EUR → €123.45, by the currency's own digits. */
export function moneyText(currency: string, minorUnits: number): string {
  try {
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(minorUnits / 10 ** digits);
  } catch {
    return `${minorUnits} ${currency}`;
  }
}

const figure = (n: number) => n.toLocaleString('en-US');
const percent = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(1)}%`);

/**
 * Leads, sales and revenue of the range (docs/api.md §20), beside the clicks' totals; nothing for
 * a range without any, so workspaces that do not track conversions see the page as before.
 */
export function conversionTotals(answer: StatsAnswer): SafeHtml {
  const figures = answer.conversions;
  if (!figures || figures.totals.leads + figures.totals.sales === 0) return html``;
  const { totals, rates } = figures;
  const revenue = Object.keys(totals.revenue)
    .sort()
    .map((currency) => moneyText(currency, totals.revenue[currency] ?? 0))
    .join(', ');
  return html`<dl class="stats totals" aria-label="Conversions of the range" data-conversions>
<div><dt>Leads</dt><dd data-total="leads">${figure(totals.leads)}</dd></div>
<div><dt>Sales</dt><dd data-total="sales">${figure(totals.sales)}</dd></div>
<div><dt>Revenue</dt><dd data-total="revenue">${revenue || '—'}</dd></div>
<div><dt>Leads per click</dt><dd data-total="leads_per_click">${percent(rates.leads_per_click)}</dd></div>
</dl>`;
}
