import { escapeHtml, html, raw, type SafeHtml } from './html.ts';

/**
 * Charts drawn on the server as SVG: no script, no canvas, nothing to load. Bars for counts per day
 * or hour, bar lists for breakdowns. Each comes with its numbers for screen readers (a table kept
 * out of sight, or the list's own text) and a tooltip per bar. Colours and sizes come from
 * stats.css (classes chart, plot, y-axis, x-axis, bar, bar-2, axis, legends, legend, swatch,
 * bar-list, flag), so both schemes work and no style attribute is needed.
 */

export interface DailySeries {
  /** UTC days, YYYY-MM-DD, oldest first. */
  days: readonly string[];
  values: readonly number[];
}

/** The plot's own units; it is stretched to the width of its box (preserveAspectRatio none). */
const WIDTH = 600;
const HEIGHT = 160;
/** Each bar's share of its slot: wide enough to see 30 of them on a phone. */
const BAR = 0.7;

/** A round top for the axis: 1, 2 or 5 times a power of ten, at least the largest value (and 4). */
function niceMax(value: number): number {
  const target = Math.max(4, value);
  const power = 10 ** Math.floor(Math.log10(target));
  for (const step of [1, 2, 5, 10]) if (step * power >= target) return step * power;
  return 10 * power;
}

const shortDay = (day: string) => day.slice(5);
const units = (n: number, unit: string) => `${unit}${n === 1 ? '' : 's'}`;
const plural = (n: number, unit: string) => `${n.toLocaleString('en-US')} ${units(n, unit)}`;
const fixed = (n: number) => n.toFixed(2);

/** The vertical scale of a plot whose largest value is `largest`. */
function scale(largest: number) {
  const top = niceMax(largest);
  return {
    top,
    y: (value: number) => HEIGHT - (value / top) * HEIGHT,
    h: (value: number) => (value / top) * HEIGHT,
  };
}

/**
 * The plot: bars (SVG markup) over three grid lines, stretched to the box; the axis labels are HTML
 * around it, so they keep their size on a phone and on a wide screen alike.
 */
function plot(bars: readonly string[], top: number, names: readonly string[], summary: string): SafeHtml {
  const y = scale(top).y;
  const grid = [0, top / 2, top].map(
    (value) =>
      `<line class="axis" x1="0" x2="${WIDTH}" y1="${fixed(y(value))}" y2="${fixed(y(value))}" vector-effect="non-scaling-stroke"/>`,
  );
  const middle = names[Math.floor((names.length - 1) / 2)] ?? '';
  return html`<div class="plot"><div class="y-axis" aria-hidden="true"><span>${top}</span><span>${top / 2}</span><span>0</span></div>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${summary}">${raw(grid.join(''))}${raw(bars.join(''))}</svg>
<span></span><div class="x-axis" aria-hidden="true"><span>${shortDay(names[0] ?? '')}</span><span>${shortDay(middle)}</span><span>${shortDay(names.at(-1) ?? '')}</span></div></div>`;
}

/**
 * A chart's numbers for screen readers. The table sits in a hidden box: a table is never smaller
 * than its cells, so one hidden by itself still adds its whole height to the page (and an hour's
 * rows their width).
 */
function hiddenTable(caption: string, columns: readonly string[], rows: ReadonlyArray<readonly unknown[]>) {
  const body = rows.map(
    ([name, ...cells]) =>
      html`<tr><th scope="row">${name}</th>${cells.map((cell) => html`<td>${cell}</td>`)}</tr>`,
  );
  return html`<div class="visually-hidden"><table><caption>${caption}</caption><thead><tr>${columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead><tbody>${body}</tbody></table></div>`;
}

/** Bars for counts per day, one tooltip per bar. */
export function dailyBars(series: DailySeries, label: string, unit: string): SafeHtml {
  const slot = WIDTH / Math.max(1, series.days.length);
  const { top, y, h } = scale(Math.max(0, ...series.values));
  const bars = series.values.map((value, i) => {
    if (value === 0) return '';
    const x = i * slot + (slot * (1 - BAR)) / 2;
    return `<rect class="bar" x="${fixed(x)}" y="${fixed(y(value))}" width="${fixed(slot * BAR)}" height="${fixed(Math.max(1, h(value)))}"><title>${escapeHtml(series.days[i])}: ${plural(value, unit)}</title></rect>`;
  });
  const total = series.values.reduce((sum, n) => sum + n, 0);
  const rows = series.days
    .map((day, i) => [day, series.values[i] ?? 0] as const)
    .filter(([, value]) => value > 0);
  const title = `${unit[0]?.toUpperCase() ?? ''}${unit.slice(1)}s`;
  return html`<figure class="chart" data-total="${total}">
${plot(bars, top, series.days, `${label}: ${plural(total, unit)} in all`)}
<figcaption class="hint">${label}: ${plural(total, unit)} · UTC</figcaption>
${hiddenTable(label, ['Day', title], rows)}
</figure>`;
}

export interface VisitSeries {
  /** Each bucket's name, `YYYY-MM-DD` or `YYYY-MM-DD hh:mm` (the axis leaves the year out), oldest first. */
  buckets: readonly string[];
  clicks: readonly number[];
  visitors: readonly number[];
}

/** What else a visit chart shows: the zone its buckets are in, the period before as a faint line. */
export interface VisitChartOptions {
  /** The zone the days or hours are in (UTC when absent), said under the chart. */
  zone?: string;
  /** The previous period's clicks, bucket by bucket in the same order: a dashed step line behind. */
  previous?: readonly number[];
}

/** A step line through each bucket's value, from its slot's left edge to its right. */
function stepPath(values: readonly number[], slot: number, y: (value: number) => number): string {
  const steps = values.map(
    (value, i) => `${i === 0 ? 'M0 ' : 'V'}${fixed(y(value))} H${fixed((i + 1) * slot)}`,
  );
  return `<path class="previous" d="${steps.join(' ')}" vector-effect="non-scaling-stroke"/>`;
}

/**
 * Clicks and unique visitors per bucket: one bar as tall as the clicks, its lower part (the unique
 * visitors, never more than the clicks) in the second colour and of the same width, so every bar
 * stays wide enough to see; one tooltip per bucket, a legend. With the previous period, its clicks
 * as a dashed line over the bars, in the legend, the summary and the table.
 */
export function visitBars(
  series: VisitSeries,
  label: string,
  bucket: 'Day' | 'Hour',
  options: VisitChartOptions = {},
): SafeHtml {
  const { previous } = options;
  const slot = WIDTH / Math.max(1, series.buckets.length);
  const before = previous ? series.buckets.map((_, i) => previous[i] ?? 0) : undefined;
  const { top, y, h } = scale(Math.max(0, ...series.clicks, ...series.visitors, ...(before ?? [])));
  const rect = (css: string, value: number) =>
    `<rect class="${css}" x="${fixed((slot * (1 - BAR)) / 2)}" y="${fixed(y(value))}" width="${fixed(slot * BAR)}" height="${fixed(Math.max(1, h(value)))}"/>`;
  const groups = series.buckets.map((name, i) => {
    const [clicks, visitors] = [series.clicks[i] ?? 0, series.visitors[i] ?? 0];
    if (clicks === 0 && visitors === 0) return '';
    const tip = `${name}: ${plural(clicks, 'click')}, ${plural(visitors, 'unique visitor')}`;
    return `<g transform="translate(${fixed(i * slot)} 0)"><title>${escapeHtml(tip)}</title>${clicks > 0 ? rect('bar', clicks) : ''}${visitors > 0 ? rect('bar-2', visitors) : ''}</g>`;
  });
  if (before) groups.push(stepPath(before, slot, y));
  const total = (values: readonly number[]) => values.reduce((sum, n) => sum + n, 0);
  const [clicks, visitors] = [total(series.clicks), total(series.visitors)];
  const rows = series.buckets
    .map((name, i) => [
      name,
      series.clicks[i] ?? 0,
      series.visitors[i] ?? 0,
      ...(before ? [before[i] ?? 0] : []),
    ])
    .filter(([, c, v, p]) => Number(c) > 0 || Number(v) > 0 || Number(p ?? 0) > 0);
  const earlier = before ? `; the previous period: ${plural(total(before), 'click')}` : '';
  const summary = `${plural(clicks, 'click')} and ${plural(visitors, 'unique visitor')} in all${earlier}`;
  const legend = before
    ? html`<span class="legend"><span class="swatch previous" aria-hidden="true"></span>Clicks, previous period (dashed line)</span>`
    : '';
  const columns = [bucket, 'Clicks', 'Unique visitors', ...(before ? ['Clicks, previous period'] : [])];
  return html`<figure class="chart" data-total="${clicks}" data-visitors="${visitors}"${before ? html` data-previous="${total(before)}"` : ''}>
${plot(groups, top, series.buckets, `${label}: ${summary}`)}
<figcaption class="legends"><span class="legend"><span class="swatch bar" aria-hidden="true"></span>Clicks</span><span class="legend"><span class="swatch bar-2" aria-hidden="true"></span>Unique visitors</span>${legend}<span class="hint">Per ${bucket.toLowerCase()} · ${options.zone ?? 'UTC'}</span></figcaption>
${hiddenTable(label, columns, rows)}
</figure>`;
}

export interface BarListRow {
  /** Shown whole: a long label wraps, it is never cut. */
  label: string;
  value: number;
  /** Its share of the whole, shown after the value ("40%"). */
  share?: string;
  /** The label links here. */
  href?: string;
  /** The row's data-value, what tests and scripts find it by. */
  key?: string;
  /** A decorative image before the label (a flag, 4:3), its name being the label. */
  icon?: string;
}

export interface BarListOptions {
  /** What the list holds, for screen readers ("Clicks by country"). */
  label: string;
  /** What the values count, singular ("click"). */
  unit: string;
  /** Headings over the labels and the values; without them the unit is written after each value. */
  columns?: readonly [string, string];
}

/**
 * A breakdown as a list, largest first as given: each row its label, its value and share, and a
 * bar under it as long as the value is against the largest one (an SVG rect: no style attribute).
 */
export function barList(rows: readonly BarListRow[], options: BarListOptions): SafeHtml {
  const largest = Math.max(1, ...rows.map((row) => row.value));
  const items = rows.map((row) => {
    const length = row.value > 0 ? Math.max(0.5, (row.value / largest) * 100) : 0;
    const icon = row.icon ? html`<img class="flag" src="${row.icon}" alt="" width="20" height="15">` : '';
    const label = row.href ? html`<a href="${row.href}">${row.label}</a>` : row.label;
    const figure = options.columns
      ? html`${row.value.toLocaleString('en-US')}<span class="visually-hidden"> ${units(row.value, options.unit)}</span>`
      : plural(row.value, options.unit);
    const key = row.key === undefined ? '' : html` data-value="${row.key}"`;
    return html`<li${key}><span class="bar-label">${icon}<span>${label}</span></span><span class="bar-figure">${figure}</span>${row.share === undefined ? '' : html`<span class="bar-share">${row.share}</span>`}
<svg class="bar-track" viewBox="0 0 100 1" preserveAspectRatio="none" width="100%" height="8" aria-hidden="true" focusable="false"><rect class="bar-fill" width="${fixed(length)}" height="1"/></svg></li>`;
  });
  const head = options.columns
    ? html`<div class="bar-head" aria-hidden="true"><span>${options.columns[0]}</span><span>${options.columns[1]}</span></div>`
    : '';
  return html`${head}<ol class="bar-list" aria-label="${options.label}">${items}</ol>`;
}

export interface BarRow {
  label: string;
  value: number;
  href?: string;
}

/** Horizontal bars for a breakdown, largest first as given, each with its number. */
export function horizontalBars(rows: readonly BarRow[], label: string, unit: string): SafeHtml {
  return barList(rows, { label, unit });
}
