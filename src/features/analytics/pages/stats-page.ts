import { DEFAULT_RANGE_DAYS } from '../../../core/analytics/stats.ts';
import { DAY_MS } from '../../../core/days.ts';
import type { Link } from '../../../core/entities.ts';
import { type Frame, here } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { errorNotice } from '../../../web/notices.ts';
import { longUrlLink } from '../../../web/page-parts.ts';
import type { StatsReport } from '../visit-stats.ts';
import { breakdownCards, type Subject, seriesChart } from './stats-tables.ts';

/**
 * GET /dashboard/stats and /dashboard/links/<code>/stats: visit stats of the account or one link over
 * a range — totals, clicks and unique visitors over time, the breakdowns — and the same as CSV.
 */

export interface StatsView {
  frame: Frame;
  report: StatsReport;
  /** The link shown; absent, every link of the account together. */
  link?: Link;
  /** The link's domain (host), off the default domain: every address of its pages names it. */
  domain?: string;
}

export const PRESET_DAYS = [7, 30, 90] as const;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const figure = (n: number) => n.toLocaleString('en-US');

export function statsPath(frame: Frame, link: Link | undefined): string {
  return here(frame, link ? `/links/${link.code}/stats` : '/stats');
}

function address(view: StatsView, path: string, fields: Record<string, string>): string {
  const query = new URLSearchParams(fields);
  if (view.domain !== undefined) query.set('domain', view.domain);
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

function rangePicker(view: StatsView): SafeHtml {
  const { report } = view;
  const { range } = report;
  const path = statsPath(view.frame, view.link);
  const end = report.today + DAY_MS;
  const hourly: Record<string, string> = range.interval === 'hour' ? { interval: 'hour' } : {};
  const presets = PRESET_DAYS.map((days) => {
    const href = address(view, path, { from: day(end - days * DAY_MS), to: day(report.today), ...hourly });
    const current = range.to === end && range.from === end - days * DAY_MS;
    return current
      ? html`<a class="button small" href="${href}" aria-current="true" data-days="${days}">Last ${days} days</a>`
      : html`<a class="button secondary small" href="${href}" data-days="${days}">Last ${days} days</a>`;
  });
  // A refused query keeps what was sent, so it can be corrected; otherwise the range shown.
  const shown = report.refused
    ? { from: report.query.from, to: report.query.to }
    : { from: day(range.from), to: day(range.to - 1) };
  const option = (value: string, label: string) =>
    range.interval === value
      ? html`<option value="${value}" selected>${label}</option>`
      : html`<option value="${value}">${label}</option>`;
  return html`<section class="card range-picker" aria-labelledby="range-heading">
<h2 id="range-heading">Range</h2>
<nav class="presets" aria-label="Quick ranges">${presets}</nav>
<form method="get" action="${path}" class="row">
  <label>From <input type="date" name="from" value="${shown.from}" max="${day(report.today)}"></label>
  <label>To <input type="date" name="to" value="${shown.to}"></label>
  <label>Bars per <select name="interval">${option('day', 'Day')}${report.hourlyAllowed ? option('hour', 'Hour') : html``}</select></label>
  ${view.domain === undefined ? html`` : html`<input type="hidden" name="domain" value="${view.domain}">`}<button type="submit" class="secondary">Show</button>
</form>
<p class="hint">Days are UTC; both ends are included. Hourly bars reach back ${report.retentionDays} days, as long as single clicks are kept; older days are kept as daily sums.</p>
</section>`;
}

function totals(report: StatsReport): SafeHtml {
  const { totals } = report.answer;
  return html`<dl class="stats" aria-label="Totals of the range">
<div><dt>Clicks</dt><dd data-total="clicks">${figure(totals.clicks)}</dd></div>
<div><dt>Unique visitors</dt><dd data-total="unique_visitors">${figure(totals.unique_visitors)}</dd></div>
<div><dt>Bot hits</dt><dd data-total="bot_hits">${figure(totals.bot_hits)}</dd></div>
<div><dt>QR scans</dt><dd data-total="qr_scans">${figure(totals.qr_scans)}</dd></div>
</dl>`;
}

function download(view: StatsView): SafeHtml {
  const { answer } = view.report;
  const href = address(view, `${statsPath(view.frame, view.link)}.csv`, {
    from: answer.from,
    to: answer.to,
    interval: answer.interval,
  });
  return html`<section class="card" id="download" aria-labelledby="download-heading">
<h2 id="download-heading">Download</h2>
<p><a class="button secondary" href="${href}" download>Download CSV</a></p>
<details class="more"><summary>What the CSV holds</summary>
<p class="hint">Four columns: <code>dimension,value,clicks,unique_visitors</code>. First the totals
(<code>total,all</code> with clicks and unique visitors, <code>total,bot_hits</code>, <code>total,qr_scans</code>),
then one <code>series</code> row per ${answer.interval} with its start (RFC 3339, UTC), clicks and unique visitors,
then one row per value of each breakdown with its clicks: <code>referrer</code> (host, or <code>direct</code>),
<code>country</code> (ISO code, <code>ZZ</code> when unknown), <code>device</code>, <code>os</code>, <code>browser</code>,
<code>language</code>, <code>source</code> (<code>qr</code> or <code>link</code>) and <code>bot</code> (hits by kind).
Each breakdown lists its top 50 values and sums the rest as <code>other</code>.</p>
</details>
</section>`;
}

export function statsPage(view: StatsView): string {
  const { link, report } = view;
  const { range } = report;
  const subject: Subject = link ? 'the link' : 'one of your links';
  const to = day(range.to - 1);
  const span = day(range.from) === to ? day(range.from) : `${day(range.from)} to ${to}`;
  const heading = link ? html`Visit stats of <code>${link.code}</code>` : html`Visit stats`;
  const back = link
    ? html`<a href="${address(view, here(view.frame, `/links/${link.code}`), {})}">← Link ${link.code}</a>`
    : html`<a href="${here(view.frame)}">← Dashboard</a>`;
  const error = report.refused && {
    code: 'range-invalid',
    message: `That range cannot be shown (${report.refused.reason}); showing the last ${DEFAULT_RANGE_DAYS} days instead.`,
  };
  return page({
    title: link ? `Stats of ${link.code}` : 'Visit stats',
    current: link ? undefined : here(view.frame, '/stats'),
    frame: view.frame,
    styles: ['dashboard.css'],
    body: html`<p>${back}</p>
<div class="page-head"><div class="stats-title"><h1>${heading}</h1>
<p class="hint" data-range="${report.answer.from}/${report.answer.to}">${span} (UTC), ${range.interval === 'hour' ? 'by hour' : 'by day'}</p>
${link ? longUrlLink(link, true) : ''}</div>
${totals(report)}</div>
${errorNotice(error)}
${rangePicker(view)}
<section class="card" id="series" aria-labelledby="series-heading"><h2 id="series-heading">Clicks and unique visitors</h2>${seriesChart(report.answer, subject)}
<p class="hint">A visitor is counted once a day: over several days the unique visitors are the sum of each day's.</p></section>
${breakdownCards(report.answer, subject)}
${download(view)}`,
  });
}
