import { DERIVED_KEYS, type DerivedDimension } from '../../../core/analytics/derived-breakdowns.ts';
import type { BreakdownRow, Dimension } from '../../../core/analytics/model.ts';
import { BREAKDOWN_KEYS, type StatsAnswer, TOP_ROWS } from '../../../core/analytics/stats.ts';
import type { FilterName } from '../../../core/analytics/stats-filters.ts';
import { barList, visitBars } from '../../../web/charts.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import type { StatsAddress } from './stats-address.ts';
import { valueLabel } from './stats-labels.ts';

/** The stats page's series chart, breakdowns and top links, each with the empty state it shows first. */

/** What the page calls the thing whose clicks it shows, in "once … is clicked". */
export type Subject = 'the link' | 'one of your links';

interface Breakdown {
  dimension: Dimension | DerivedDimension;
  title: string;
  /** What a value is, heading the list's labels. */
  column: string;
  /** What the empty table will hold. */
  empty: string;
}

export const BREAKDOWNS: readonly Breakdown[] = [
  { dimension: 'referrer', title: 'Referrers', column: 'Referrer', empty: 'The sites visitors came from' },
  {
    dimension: 'referrer_source',
    title: 'Referrer sources',
    column: 'Source',
    empty: 'Search engines, social networks and other sources',
  },
  { dimension: 'country', title: 'Countries', column: 'Country', empty: 'Countries, with their flags,' },
  { dimension: 'device', title: 'Devices', column: 'Device', empty: 'Desktops, phones and tablets' },
  { dimension: 'os', title: 'Operating systems', column: 'System', empty: 'Operating systems' },
  { dimension: 'browser', title: 'Browsers', column: 'Browser', empty: 'Browsers' },
  { dimension: 'language', title: 'Languages', column: 'Language', empty: "Visitors' first languages" },
  {
    dimension: 'source',
    title: 'QR code or link',
    column: 'Came by',
    empty: 'Scans of the QR code and clicks on the link',
  },
  {
    dimension: 'bot',
    title: 'Bots by kind',
    column: 'Kind',
    empty: 'Link previews, crawlers and prefetches',
  },
  { dimension: 'utm_source', title: 'Campaign sources', column: 'Source', empty: '' },
  { dimension: 'utm_medium', title: 'Campaign mediums', column: 'Medium', empty: '' },
  { dimension: 'utm_campaign', title: 'Campaigns', column: 'Campaign', empty: '' },
];

/** Breakdowns only the workspace's own pages show: the public page keeps to the recorded facts. */
const DERIVED = new Set<string>(Object.keys(DERIVED_KEYS));
/** Breakdowns shown only when they have rows: a link without UTM parameters has none. */
const WHEN_FOUND = new Set<string>(['utm_source', 'utm_medium', 'utm_campaign']);
/** The filter a breakdown's row narrows the page to; bots carry no facts to filter on. */
const FILTER_OF: Partial<Record<Breakdown['dimension'], FilterName>> = {
  referrer: 'referrer',
  referrer_source: 'referrer',
  country: 'country',
  device: 'device',
  os: 'os',
  browser: 'browser',
  language: 'language',
  source: 'source',
  utm_source: 'utm_source',
  utm_medium: 'utm_medium',
  utm_campaign: 'utm_campaign',
};

const rowsOf = (answer: StatsAnswer, dimension: Breakdown['dimension']): readonly BreakdownRow[] =>
  dimension in DERIVED_KEYS
    ? answer[DERIVED_KEYS[dimension as DerivedDimension]]
    : answer[BREAKDOWN_KEYS[dimension as Dimension]];

function labelOf(dimension: Breakdown['dimension'], value: string, rest: boolean) {
  if (dimension === 'referrer_source') return valueLabel('referrer', value, rest);
  if (DERIVED.has(dimension)) return { text: rest ? 'All others' : value };
  return valueLabel(dimension as Dimension, value, rest);
}

/** A value's share of the whole, rounded; a small one is "<1%", never "0%". */
export function share(clicks: number, sum: number): string {
  const percent = (clicks / Math.max(1, sum)) * 100;
  if (percent > 0 && percent < 1) return '<1%';
  return `${Math.round(percent)}%`;
}

function breakdownList(
  breakdown: Breakdown,
  rows: readonly BreakdownRow[],
  unit: string,
  address: StatsAddress | undefined,
): SafeHtml {
  const sum = rows.reduce((total, row) => total + row.clicks, 0);
  const filter = FILTER_OF[breakdown.dimension];
  return barList(
    rows.map((row, i) => {
      const rest = i === TOP_ROWS && row.value === 'other';
      const label = labelOf(breakdown.dimension, row.value, rest);
      // Each row narrows the page to its value; "All others" is no one value.
      const href = address && filter && !rest ? address.drill(filter, row.value) : undefined;
      return {
        label: label.text,
        ...(href ? { href } : {}),
        ...(label.flag ? { icon: label.flag } : {}),
        value: row.clicks,
        share: share(row.clicks, sum),
        key: row.value,
      };
    }),
    {
      label: `${unit}s by ${breakdown.column.toLowerCase()}`,
      unit: unit.toLowerCase(),
      columns: [breakdown.column, `${unit}s`],
    },
  );
}

function breakdownCard(
  breakdown: Breakdown,
  answer: StatsAnswer,
  subject: Subject,
  address: StatsAddress | undefined,
): SafeHtml {
  const rows = rowsOf(answer, breakdown.dimension);
  const id = `by-${breakdown.dimension.replace('_', '-')}`;
  let body: SafeHtml;
  const filtered = (address?.filters.length ?? 0) > 0;
  if (rows.length > 0) {
    body = breakdownList(breakdown, rows, breakdown.dimension === 'bot' ? 'Hit' : 'Click', address);
  } else if (filtered && breakdown.dimension === 'bot') {
    body = html`<p class="empty" data-state="no-match">Bot hits are not counted while filtering: they carry none of these details.</p>`;
  } else if (filtered && answer.totals.clicks === 0) {
    body = html`<p class="empty" data-state="no-match">No clicks of this range match the filters.</p>`;
  } else if (breakdown.dimension === 'bot' && answer.totals.bot_hits > 0) {
    body = html`<p class="empty" data-state="no-details">No kinds were recorded for these bot hits: tracking was minimal or off.</p>`;
  } else if (breakdown.dimension !== 'bot' && answer.totals.clicks > 0) {
    body = html`<p class="empty" data-state="no-details">No details were recorded for these clicks: tracking was minimal or off, or the browsers asked not to be tracked.</p>`;
  } else {
    const when = breakdown.dimension === 'bot' ? `${subject} is fetched by one` : `${subject} is clicked`;
    body = html`<p class="empty" data-state="empty">${breakdown.empty} will appear here once ${when}.</p>`;
  }
  return html`<section class="card" id="${id}" aria-labelledby="${id}-heading"><h2 id="${id}-heading">${breakdown.title}</h2>${body}</section>`;
}

/**
 * The breakdowns. With the page's address (the workspace's own pages), every row links to the page
 * narrowed to its value, and the referrer sources and campaign breakdowns are shown too; without
 * it (the public page) plain lists of the recorded facts, linking nowhere.
 */
export function breakdownCards(answer: StatsAnswer, subject: Subject, address?: StatsAddress): SafeHtml {
  const shown = BREAKDOWNS.filter(
    (breakdown) =>
      (address || !DERIVED.has(breakdown.dimension)) &&
      (!WHEN_FOUND.has(breakdown.dimension) || rowsOf(answer, breakdown.dimension).length > 0),
  );
  return html`<div class="breakdowns">${shown.map((breakdown) => breakdownCard(breakdown, answer, subject, address))}</div>`;
}

/** One of the most clicked links of the range: what the list shows of it and where it leads. */
export interface TopLink {
  code: string;
  /** Its title, or its short code when it has none. */
  label: string;
  /** Its page in the workspace. */
  path: string;
  clicks: number;
}

/** The workspace's most clicked links over the range, each linking to its page. */
export function topLinksCard(top: readonly TopLink[], answer: StatsAnswer, filtered = false): SafeHtml {
  // Shares of all clicks of the range; the links count whole days, which an hourly range may cut.
  const whole = Math.max(answer.totals.clicks, ...top.map((link) => link.clicks));
  const body =
    top.length === 0
      ? html`<p class="empty" data-state="empty">Your most clicked links will appear here once one of them is clicked in this range.</p>`
      : barList(
          top.map((link) => ({
            label: link.label,
            href: link.path,
            value: link.clicks,
            // Filtered totals are no whole for unfiltered counts: no share then.
            ...(filtered ? {} : { share: share(link.clicks, whole) }),
            key: link.code,
          })),
          { label: 'Most clicked links', unit: 'click', columns: ['Link', 'Clicks'] },
        );
  // The list counts every click of the range's days: say so while the figures above are filtered.
  const note = filtered
    ? html`<p class="hint" data-state="unfiltered">Of all clicks in the range: the filters do not apply to this list.</p>`
    : '';
  return html`<section class="card" id="top-links" aria-labelledby="top-links-heading"><h2 id="top-links-heading">Top links</h2>${note}${body}</section>`;
}

/** A bucket's start as shown: its UTC day, and its hour when hourly. */
function bucketName(t: string, hourly: boolean): string {
  return hourly ? `${t.slice(0, 10)} ${t.slice(11, 16)}` : t.slice(0, 10);
}

export function seriesChart(answer: StatsAnswer, subject: Subject): SafeHtml {
  const hourly = answer.interval === 'hour';
  const every = hourly ? 'hour' : 'day';
  const previous = answer.previous?.series.map((point) => point.clicks);
  const some = (counts: readonly number[] | undefined) => counts?.some((n) => n > 0) ?? false;
  if (!answer.series.some((point) => point.clicks > 0 || point.unique_visitors > 0) && !some(previous)) {
    return html`<div class="empty" data-state="no-clicks"><p>Clicks will appear here once ${subject} is clicked in this range.</p></div>`;
  }
  return visitBars(
    {
      buckets: answer.series.map((point) => bucketName(point.t, hourly)),
      clicks: answer.series.map((point) => point.clicks),
      visitors: answer.series.map((point) => point.unique_visitors),
    },
    `Clicks and unique visitors per ${every}`,
    hourly ? 'Hour' : 'Day',
    { zone: answer.timezone, ...(previous ? { previous } : {}) },
  );
}
