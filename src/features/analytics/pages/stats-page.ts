import { DEFAULT_RANGE_DAYS } from '../../../core/analytics/stats.ts';
import { DAY_MS } from '../../../core/days.ts';
import type { Link } from '../../../core/entities.ts';
import { type Frame, here } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { errorNotice } from '../../../web/notices.ts';
import { longUrlLink } from '../../../web/page-parts.ts';
import type { StatsReport } from '../visit-stats.ts';
import { livePanel } from './live-panel.ts';
import { breakdownCards, type Subject, seriesChart, type TopLink, topLinksCard } from './stats-tables.ts';

/**
 * GET /w/<slug>/stats and /w/<slug>/links/<code>/stats: visit stats of the workspace or one link over
 * a range — totals, clicks and unique visitors over time, the workspace's top links, the breakdowns —
 * and the same as CSV.
 */

export interface StatsView {
  frame: Frame;
  report: StatsReport;
  /** The link shown; absent, every link of the account together. */
  link?: Link;
  /** The link's domain (host), off the default domain: every address of its pages names it. */
  domain?: string;
  /** The host the link's short URL is on. */
  host?: string;
  /** The most clicked links of the range (the workspace's page only). */
  top?: readonly TopLink[];
}

export const PRESET_DAYS = [7, 30, 90] as const;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const figure = (n: number) => n.toLocaleString('en-US');
const dateText = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

export function statsPath(frame: Frame, link: Link | undefined): string {
  return here(frame, link ? `/links/${link.code}/stats` : '/stats');
}

function address(view: StatsView, path: string, fields: Record<string, string>): string {
  const query = new URLSearchParams(fields);
  if (view.domain !== undefined) query.set('domain', view.domain);
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** The range's own form, behind "Custom": the days, bars per day or hour. */
function customRange(view: StatsView, path: string, custom: boolean): SafeHtml {
  const { report } = view;
  const { range } = report;
  // A refused query keeps what was sent, so it can be corrected; otherwise the range shown.
  const shown = report.refused
    ? { from: report.query.from, to: report.query.to }
    : { from: day(range.from), to: day(range.to - 1) };
  const option = (value: string, label: string) =>
    range.interval === value
      ? html`<option value="${value}" selected>${label}</option>`
      : html`<option value="${value}">${label}</option>`;
  const domain =
    view.domain === undefined ? '' : html`<input type="hidden" name="domain" value="${view.domain}">`;
  return html`<details class="custom-range"><summary${custom ? html` class="current"` : ''}>Custom</summary>
<form method="get" action="${path}">
  <label>From <input type="date" name="from" value="${shown.from}" max="${day(report.today)}"></label>
  <label>To <input type="date" name="to" value="${shown.to}"></label>
  <label>Bars per <select name="interval">${option('day', 'Day')}${report.hourlyAllowed ? option('hour', 'Hour') : ''}</select></label>
  ${domain}<button type="submit" class="small">Show</button>
  <p class="hint">UTC days. Hourly bars for the last ${report.retentionDays} days.</p>
</form></details>`;
}

/** Last 7, 30 or 90 days as a segmented control, and any other range behind "Custom". */
function rangePicker(view: StatsView): SafeHtml {
  const { report } = view;
  const { range } = report;
  const path = statsPath(view.frame, view.link);
  const end = report.today + DAY_MS;
  const hourly: Record<string, string> = range.interval === 'hour' ? { interval: 'hour' } : {};
  let custom = true;
  const presets = PRESET_DAYS.map((days) => {
    const href = address(view, path, { from: day(end - days * DAY_MS), to: day(report.today), ...hourly });
    const current = range.to === end && range.from === end - days * DAY_MS;
    if (current) custom = false;
    return current
      ? html`<a href="${href}" aria-current="true" data-days="${days}">${days} days</a>`
      : html`<a href="${href}" data-days="${days}">${days} days</a>`;
  });
  return html`<div class="range-picker"><nav class="presets" aria-label="Range">${presets}</nav>
${customRange(view, path, custom)}</div>`;
}

export function totals(report: StatsReport): SafeHtml {
  const { totals } = report.answer;
  return html`<dl class="stats totals" aria-label="Totals of the range">
<div><dt>Clicks</dt><dd data-total="clicks">${figure(totals.clicks)}</dd></div>
<div><dt>Unique visitors</dt><dd data-total="unique_visitors">${figure(totals.unique_visitors)}</dd></div>
<div><dt>Bot hits</dt><dd data-total="bot_hits">${figure(totals.bot_hits)}</dd></div>
<div><dt>QR scans</dt><dd data-total="qr_scans">${figure(totals.qr_scans)}</dd></div>
</dl>`;
}

/** The range as people read it: "29 Oct 2026 – 27 Nov 2026 · by day". */
export function rangeText(report: StatsReport): string {
  const { range } = report;
  const [first, last] = [dateText.format(range.from), dateText.format(range.to - 1)];
  return `${first === last ? first : `${first} – ${last}`} · ${range.interval === 'hour' ? 'by hour' : 'by day'} · UTC`;
}

/** The page's heading: the link's title, or its short URL when it has none; the short URL in full. */
function heading(view: StatsView): SafeHtml {
  const { link } = view;
  if (!link) return html`<h1>Visit stats</h1>`;
  const short = html`<span class="host">${view.host ?? ''}/</span><span class="code">${link.code}</span>`;
  return link.title
    ? html`<h1>${link.title}</h1><p class="short-url" data-code="${link.code}">${short}</p>`
    : html`<h1 class="short-url" data-code="${link.code}">${short}</h1>`;
}

function download(view: StatsView): SafeHtml {
  const { answer } = view.report;
  const href = address(view, `${statsPath(view.frame, view.link)}.csv`, {
    from: answer.from,
    to: answer.to,
    interval: answer.interval,
  });
  return html`<section class="card download" id="download" aria-labelledby="download-heading">
<h2 id="download-heading">Download</h2>
<p><a class="button secondary small" href="${href}" download>Download CSV</a></p>
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
  const subject: Subject = link ? 'the link' : 'one of your links';
  // The workspace's page is in the navigation; one link's leads back to the link.
  const back = link
    ? html`<p class="back"><a href="${address(view, here(view.frame, `/links/${link.code}`), {})}">← Link ${link.code}</a></p>`
    : '';
  const error = report.refused && {
    code: 'range-invalid',
    message: `That range cannot be shown (${report.refused.reason}); showing the last ${DEFAULT_RANGE_DAYS} days instead.`,
  };
  return page({
    title: link ? `Stats of ${link.title || link.code}` : 'Visit stats',
    current: link ? undefined : here(view.frame, '/stats'),
    frame: view.frame,
    styles: ['stats.css'],
    scripts: link ? undefined : ['live-clicks.js'],
    body: html`${back}
<div class="stats-head"><div class="stats-title">${heading(view)}
${link ? longUrlLink(link, true) : ''}
<p class="hint" data-range="${report.answer.from}/${report.answer.to}">${rangeText(report)}</p></div>
${rangePicker(view)}</div>
${errorNotice(error)}
<section class="card" id="series" aria-labelledby="series-heading"><h2 id="series-heading" class="visually-hidden">Clicks and unique visitors</h2>
${totals(report)}${seriesChart(report.answer, subject)}</section>
${link ? '' : livePanel(here(view.frame, '/stats/live'))}
${view.top ? topLinksCard(view.top, report.answer) : ''}
${breakdownCards(report.answer, subject)}
${download(view)}`,
  });
}
