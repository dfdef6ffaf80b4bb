import type { BreakdownRow, Dimension } from '../../../core/analytics/model.ts';
import { BREAKDOWN_KEYS, type StatsAnswer, TOP_ROWS } from '../../../core/analytics/stats.ts';
import { visitBars } from '../../../web/charts.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { valueLabel } from './stats-labels.ts';

/** The stats page's series chart and breakdown tables, each with the empty state it shows first. */

/** What the page calls the thing whose clicks it shows, in "once … is clicked". */
export type Subject = 'the link' | 'one of your links';

interface Breakdown {
  dimension: Dimension;
  title: string;
  /** The first column's heading. */
  column: string;
  /** What the empty table will hold. */
  empty: string;
}

export const BREAKDOWNS: readonly Breakdown[] = [
  { dimension: 'referrer', title: 'Referrers', column: 'Referrer', empty: 'The sites visitors came from' },
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
];

const figure = (n: number) => n.toLocaleString('en-US');

function share(clicks: number, sum: number): string {
  const percent = (clicks / sum) * 100;
  if (percent > 0 && percent < 1) return '<1%';
  return `${Math.round(percent)}%`;
}

function breakdownRows(dimension: Dimension, rows: readonly BreakdownRow[]): SafeHtml[] {
  const sum = Math.max(
    1,
    rows.reduce((total, row) => total + row.clicks, 0),
  );
  return rows.map((row, i) => {
    const label = valueLabel(dimension, row.value, i === TOP_ROWS && row.value === 'other');
    const whole = label.code ? `${label.text} (${label.code})` : label.text;
    return html`<tr data-value="${row.value}"><td><span class="truncate" title="${whole}">${label.mark ? html`<span class="flag" aria-hidden="true">${label.mark}</span> ` : ''}${label.text}${label.code ? html` <span class="hint">${label.code}</span>` : ''}</span>
<meter min="0" max="${sum}" value="${row.clicks}" aria-hidden="true"></meter></td><td class="num">${figure(row.clicks)}</td><td class="num">${share(row.clicks, sum)}</td></tr>`;
  });
}

function breakdownCard(breakdown: Breakdown, answer: StatsAnswer, subject: Subject): SafeHtml {
  const rows = answer[BREAKDOWN_KEYS[breakdown.dimension]];
  const id = `by-${breakdown.dimension}`;
  const unit = breakdown.dimension === 'bot' ? 'Hits' : 'Clicks';
  let body: SafeHtml;
  if (rows.length > 0) {
    body = html`<table class="breakdown"><caption class="visually-hidden">${unit} by ${breakdown.column.toLowerCase()}</caption>
<thead><tr><th scope="col">${breakdown.column}</th><th scope="col" class="num">${unit}</th><th scope="col" class="num">Share</th></tr></thead>
<tbody>${breakdownRows(breakdown.dimension, rows)}</tbody></table>`;
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

export function breakdownCards(answer: StatsAnswer, subject: Subject): SafeHtml {
  return html`<div class="breakdowns">${BREAKDOWNS.map((breakdown) => breakdownCard(breakdown, answer, subject))}</div>`;
}

/** A bucket's start as shown: its UTC day, and its hour when hourly. */
function bucketName(t: string, hourly: boolean): string {
  return hourly ? `${t.slice(0, 10)} ${t.slice(11, 16)}` : t.slice(0, 10);
}

export function seriesChart(answer: StatsAnswer, subject: Subject): SafeHtml {
  const hourly = answer.interval === 'hour';
  const every = hourly ? 'hour' : 'day';
  if (!answer.series.some((point) => point.clicks > 0 || point.unique_visitors > 0)) {
    return html`<div class="empty" data-state="no-clicks"><p>Clicks will appear here once ${subject} is clicked in this range.</p>
<p class="hint">Each ${every} gets two bars: its clicks, and its unique visitors in front of them.</p></div>`;
  }
  return visitBars(
    {
      buckets: answer.series.map((point) => bucketName(point.t, hourly)),
      clicks: answer.series.map((point) => point.clicks),
      visitors: answer.series.map((point) => point.unique_visitors),
    },
    `Clicks and unique visitors per ${every}`,
    hourly ? 'Hour' : 'Day',
  );
}
