import { escapeHtml, html, raw, type SafeHtml } from './html.ts';

/**
 * Charts drawn on the server as SVG: no script, no canvas, nothing to load. Bars for counts per day,
 * horizontal bars for breakdowns. Each comes with its numbers for screen readers (a table kept out
 * of sight) and a tooltip per bar; colours come from the style sheet, so both schemes work.
 */

export interface DailySeries {
  /** UTC days, YYYY-MM-DD, oldest first. */
  days: readonly string[];
  values: readonly number[];
}

/** The plot's own units; it is stretched to the width of its box (preserveAspectRatio none). */
const WIDTH = 600;
const HEIGHT = 160;

/** A round top for the axis: 1, 2 or 5 times a power of ten, at least the largest value (and 4). */
function niceMax(value: number): number {
  const target = Math.max(4, value);
  const power = 10 ** Math.floor(Math.log10(target));
  for (const step of [1, 2, 5, 10]) if (step * power >= target) return step * power;
  return 10 * power;
}

const shortDay = (day: string) => day.slice(5);
const plural = (n: number, unit: string) => `${n.toLocaleString('en-US')} ${unit}${n === 1 ? '' : 's'}`;

/**
 * Bars for counts per day. The bars and grid lines are SVG stretched to the box; the axis labels
 * are HTML around it, so they keep their size on a phone and on a wide screen alike.
 */
export function dailyBars(series: DailySeries, label: string, unit: string): SafeHtml {
  const count = series.days.length;
  const top = niceMax(Math.max(0, ...series.values));
  const slot = WIDTH / Math.max(1, count);
  const y = (value: number) => HEIGHT - (value / top) * HEIGHT;
  const bars = series.values.map((value, i) => {
    if (value === 0) return '';
    const height = Math.max(1, (value / top) * HEIGHT);
    const x = i * slot + slot * 0.15;
    return `<rect class="bar" x="${x.toFixed(2)}" y="${y(value).toFixed(2)}" width="${(slot * 0.7).toFixed(2)}" height="${height.toFixed(2)}"><title>${series.days[i]}: ${plural(value, unit)}</title></rect>`;
  });
  const grid = [0, top / 2, top].map(
    (value) =>
      `<line class="axis" x1="0" x2="${WIDTH}" y1="${y(value).toFixed(2)}" y2="${y(value).toFixed(2)}" vector-effect="non-scaling-stroke"/>`,
  );
  const total = series.values.reduce((sum, n) => sum + n, 0);
  const rows = series.days
    .map((day, i) => [day, series.values[i] ?? 0] as const)
    .filter(([, value]) => value > 0)
    .map(([day, value]) => html`<tr><th scope="row">${day}</th><td>${value}</td></tr>`);
  const middle = series.days[Math.floor((count - 1) / 2)] ?? '';
  return html`<figure class="chart" data-total="${total}">
<div class="plot"><div class="y-axis" aria-hidden="true"><span>${top}</span><span>${top / 2}</span><span>0</span></div>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${label}: ${plural(total, unit)} in all">${raw(grid.join(''))}${raw(bars.join(''))}</svg>
<span></span><div class="x-axis" aria-hidden="true"><span>${shortDay(series.days[0] ?? '')}</span><span>${shortDay(middle)}</span><span>${shortDay(series.days.at(-1) ?? '')}</span></div></div>
<figcaption class="hint">${label} (UTC days): ${plural(total, unit)} in all. Each bar's tooltip gives its day.</figcaption>
<table class="visually-hidden"><caption>${label}</caption><thead><tr><th scope="col">Day</th><th scope="col">${unit}s</th></tr></thead><tbody>${rows}</tbody></table>
</figure>`;
}

export interface BarRow {
  label: string;
  value: number;
  href?: string;
}

/** Horizontal bars for a breakdown, largest first as given, each with its number. */
export function horizontalBars(rows: readonly BarRow[], label: string, unit: string): SafeHtml {
  const top = Math.max(1, ...rows.map((row) => row.value));
  return html`<ul class="hbars" aria-label="${label}">${rows.map(
    (
      row,
    ) => html`<li><span class="truncate" title="${row.label}">${row.href ? html`<a href="${row.href}">${row.label}</a>` : row.label}</span>
<span class="num">${plural(row.value, unit)}</span><meter min="0" max="${top}" value="${row.value}" aria-hidden="true"></meter></li>`,
  )}</ul>`;
}

export interface VisitSeries {
  /** Each bucket's name, `YYYY-MM-DD` or `YYYY-MM-DD hh:mm` (the axis leaves the year out), oldest first. */
  buckets: readonly string[];
  clicks: readonly number[];
  visitors: readonly number[];
}

/**
 * Clicks and unique visitors per bucket: a wide bar for the clicks with the visitors' narrower bar
 * in front of it (a bucket never has more visitors than clicks), one tooltip per bucket, a legend,
 * the numbers in a hidden table (inside a hidden box: a table is never narrower than its cells, and
 * an hour's rows would widen the page). Axis labels are HTML, as in dailyBars.
 */
export function visitBars(series: VisitSeries, label: string, bucket: 'Day' | 'Hour'): SafeHtml {
  const count = series.buckets.length;
  const top = niceMax(Math.max(0, ...series.clicks, ...series.visitors));
  const slot = WIDTH / Math.max(1, count);
  const y = (value: number) => HEIGHT - (value / top) * HEIGHT;
  const rect = (css: string, value: number, inset: number) =>
    `<rect class="${css}" x="${(slot * inset).toFixed(2)}" y="${y(value).toFixed(2)}" width="${(slot * (1 - 2 * inset)).toFixed(2)}" height="${Math.max(1, (value / top) * HEIGHT).toFixed(2)}"/>`;
  const groups = series.buckets.map((name, i) => {
    const [clicks, visitors] = [series.clicks[i] ?? 0, series.visitors[i] ?? 0];
    if (clicks === 0 && visitors === 0) return '';
    const tip = `${name}: ${plural(clicks, 'click')}, ${plural(visitors, 'unique visitor')}`;
    return `<g transform="translate(${(i * slot).toFixed(2)} 0)"><title>${escapeHtml(tip)}</title>${clicks > 0 ? rect('bar', clicks, 0.1) : ''}${visitors > 0 ? rect('bar-2', visitors, 0.3) : ''}</g>`;
  });
  const grid = [0, top / 2, top].map(
    (value) =>
      `<line class="axis" x1="0" x2="${WIDTH}" y1="${y(value).toFixed(2)}" y2="${y(value).toFixed(2)}" vector-effect="non-scaling-stroke"/>`,
  );
  const total = (values: readonly number[]) => values.reduce((sum, n) => sum + n, 0);
  const [clicks, visitors] = [total(series.clicks), total(series.visitors)];
  const rows = series.buckets
    .map((name, i) => [name, series.clicks[i] ?? 0, series.visitors[i] ?? 0] as const)
    .filter(([, c, v]) => c > 0 || v > 0)
    .map(([name, c, v]) => html`<tr><th scope="row">${name}</th><td>${c}</td><td>${v}</td></tr>`);
  const middle = series.buckets[Math.floor((count - 1) / 2)] ?? '';
  const summary = `${plural(clicks, 'click')} and ${plural(visitors, 'unique visitor')} in all`;
  return html`<figure class="chart" data-total="${clicks}" data-visitors="${visitors}">
<div class="plot"><div class="y-axis" aria-hidden="true"><span>${top}</span><span>${top / 2}</span><span>0</span></div>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${label}: ${summary}">${raw(grid.join(''))}${raw(groups.join(''))}</svg>
<span></span><div class="x-axis" aria-hidden="true"><span>${shortDay(series.buckets[0] ?? '')}</span><span>${shortDay(middle)}</span><span>${shortDay(series.buckets.at(-1) ?? '')}</span></div></div>
<figcaption class="hint"><div class="legends"><span class="legend"><span class="swatch bar" aria-hidden="true"></span>Clicks</span><span class="legend"><span class="swatch bar-2" aria-hidden="true"></span>Unique visitors</span></div>
${label} (UTC): ${summary}. Each bar's tooltip gives its ${bucket.toLowerCase()}.</figcaption>
<div class="visually-hidden"><table><caption>${label}</caption><thead><tr><th scope="col">${bucket}</th><th scope="col">Clicks</th><th scope="col">Unique visitors</th></tr></thead><tbody>${rows}</tbody></table></div>
</figure>`;
}
