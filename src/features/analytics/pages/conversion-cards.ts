import type { StatsAnswer } from '../../../core/analytics/stats.ts';
import type { Revenue } from '../../../core/conversions.ts';
import type { Link } from '../../../core/entities.ts';
import { barList } from '../../../web/charts.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { moneyText } from './conversion-totals.ts';

/**
 * The stats page's conversion cards (docs/api.md §20): the funnel clicks → leads → sales with its
 * rates and the revenue per currency, and a link's A/B test variants with their clicks (and their
 * leads and sales when the answer breaks conversions down by variant).
 */

const figure = (n: number) => n.toLocaleString('en-US');
const percent = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(1)}%`);

function revenueList(revenue: Revenue): SafeHtml {
  const currencies = Object.keys(revenue).sort();
  if (currencies.length === 0) return html`<p class="hint" data-revenue="none">No revenue yet.</p>`;
  const items = currencies.map(
    (currency) =>
      html`<div><dt>${currency}</dt><dd data-revenue="${currency}">${moneyText(currency, revenue[currency] ?? 0)}</dd></div>`,
  );
  return html`<dl class="stats revenue" aria-label="Revenue per currency">${items}</dl>`;
}

/**
 * Clicks, then the leads they brought (per click), then the sales (per lead), and the revenue.
 * Only where conversions are tracked or were recorded: otherwise the page is as it was.
 */
export function funnelCard(answer: StatsAnswer, tracks: boolean): SafeHtml {
  const figures = answer.conversions;
  const any = figures !== undefined && figures.totals.leads + figures.totals.sales > 0;
  if (!figures || !(any || tracks)) return html``;
  const { totals, rates } = figures;
  const rows = [
    { key: 'clicks', label: 'Clicks', value: answer.totals.clicks },
    {
      key: 'leads',
      label: 'Leads',
      value: totals.leads,
      share: `${percent(rates.leads_per_click)} of clicks`,
    },
    { key: 'sales', label: 'Sales', value: totals.sales, share: `${percent(rates.sales_per_lead)} of leads` },
  ];
  return html`<section class="card" id="funnel" aria-labelledby="funnel-heading" data-funnel>
<h2 id="funnel-heading">Conversion funnel</h2>
${barList(rows, { label: 'Clicks, leads and sales of the range', unit: 'event', columns: ['Step', 'Count'] })}
<h3>Revenue</h3>
${revenueList(totals.revenue)}
</section>`;
}

/** Leads and sales of each variant of a link's answer (`conversions.variants`, docs/api.md §20). */
function variantConversions(answer: StatsAnswer): Map<string, { leads: number; sales: number }> {
  return new Map(
    (answer.conversions?.variants ?? []).map((row) => [row.variant, { leads: row.leads, sales: row.sales }]),
  );
}

/** The clicks each variant of the link's A/B test took; shown when the link has or had a test. */
export function variantsCard(answer: StatsAnswer, link: Link | undefined): SafeHtml {
  if (!link || (answer.variants.length === 0 && !link.test)) return html``;
  const urls = link.test?.variants.map((variant) => variant.url) ?? [];
  const total = answer.variants.reduce((sum, row) => sum + row.clicks, 0);
  const conversions = variantConversions(answer);
  const values = new Set([...urls.map((_, i) => String(i + 1)), ...answer.variants.map((row) => row.value)]);
  const rows = [...values].sort().map((value) => {
    const clicks = answer.variants.find((row) => row.value === value)?.clicks ?? 0;
    const url = urls[Number(value) - 1];
    const more = conversions.get(value);
    const share = total > 0 ? `${((clicks / total) * 100).toFixed(0)}%` : '—';
    return {
      key: value,
      label: url ? `Variant ${value}: ${url}` : `Variant ${value}`,
      value: clicks,
      share: more ? `${share} · ${figure(more.leads)} leads · ${figure(more.sales)} sales` : share,
    };
  });
  const note = link.test
    ? html`<p class="hint">Clicks no targeting rule took, split by the test's weights.</p>`
    : html`<p class="hint">The link's test has ended; the clicks its variants took in the range.</p>`;
  return html`<section class="card" id="variants" aria-labelledby="variants-heading">
<h2 id="variants-heading">Variants</h2>${note}
${barList(rows, { label: 'Clicks by variant', unit: 'click', columns: ['Variant', 'Clicks'] })}
</section>`;
}
