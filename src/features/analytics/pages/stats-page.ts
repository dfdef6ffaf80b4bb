import { DEFAULT_RANGE_DAYS } from '../../../core/analytics/stats.ts';
import { DAY_MS } from '../../../core/days.ts';
import type { Link } from '../../../core/entities.ts';
import { type Frame, here } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { errorNotice } from '../../../web/notices.ts';
import { longUrlLink } from '../../../web/page-parts.ts';
import type { StatsReport } from '../visit-stats.ts';
import { funnelCard, variantsCard } from './conversion-cards.ts';
import { conversionTotals } from './conversion-totals.ts';
import { livePanel } from './live-panel.ts';
import { type StatsAddress, statsAddress } from './stats-address.ts';
import { change, daysText, statsContext } from './stats-controls.ts';
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

export function statsPath(frame: Frame, link: Link | undefined): string {
  return here(frame, link ? `/links/${link.code}/stats` : '/stats');
}

/** The page's address as it stands, a link's keeping its domain (`?domain=` names the link there). */
function addressOf(view: StatsView): StatsAddress {
  const fixed: Record<string, string> = view.domain === undefined ? {} : { domain: view.domain };
  return statsAddress(view.report, statsPath(view.frame, view.link), fixed, !view.link);
}

/** The fields the range's form keeps as they are: the filters, the zone, the comparison, the domain. */
function keptFields(address: StatsAddress): SafeHtml[] {
  const kept = new URL(address.href({ from: undefined, to: undefined, interval: undefined }), 'http://x');
  return [...kept.searchParams].map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
}

/** The range's own form, behind "Custom": the days, bars per day or hour. */
function customRange(view: StatsView, address: StatsAddress, custom: boolean): SafeHtml {
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
  return html`<details class="custom-range"><summary${custom ? html` class="current"` : ''}>Custom</summary>
<form method="get" action="${statsPath(view.frame, view.link)}">
  <label>From <input type="date" name="from" value="${shown.from}" max="${day(report.today)}"></label>
  <label>To <input type="date" name="to" value="${shown.to}"></label>
  <label>Bars per <select name="interval">${option('day', 'Day')}${report.hourlyAllowed ? option('hour', 'Hour') : ''}</select></label>
  ${keptFields(address)}<button type="submit" class="small">Show</button>
  <p class="hint">Days in ${report.answer.timezone} time. Hourly bars for the last ${report.retentionDays} days.</p>
</form></details>`;
}

/** Last 7, 30 or 90 days as a segmented control, and any other range behind "Custom". */
function rangePicker(view: StatsView, address: StatsAddress): SafeHtml {
  const { report } = view;
  const { answer } = report;
  const end = report.today + DAY_MS;
  const hourly = answer.interval === 'hour' ? 'hour' : undefined;
  let custom = true;
  const presets = PRESET_DAYS.map((days) => {
    const href = address.href({ from: day(end - days * DAY_MS), to: day(report.today), interval: hourly });
    // Compared as dates, so that a range of the zone's days is found too.
    const current =
      answer.to.slice(0, 10) === day(end) && answer.from.slice(0, 10) === day(end - days * DAY_MS);
    if (current) custom = false;
    return current
      ? html`<a href="${href}" aria-current="true" data-days="${days}">${days} days</a>`
      : html`<a href="${href}" data-days="${days}">${days} days</a>`;
  });
  return html`<div class="range-picker"><nav class="presets" aria-label="Range">${presets}</nav>
${customRange(view, address, custom)}</div>`;
}

const TOTALS = [
  ['clicks', 'Clicks'],
  ['unique_visitors', 'Unique visitors'],
  ['bot_hits', 'Bot hits'],
  ['qr_scans', 'QR scans'],
] as const;

/** The range's totals; compared, each with its change against the previous period. */
export function totals(report: StatsReport): SafeHtml {
  const { totals, previous } = report.answer;
  const rows = TOTALS.map(
    ([key, name]) =>
      html`<div><dt>${name}</dt><dd data-total="${key}">${figure(totals[key])}</dd>${previous ? change(totals[key], previous.totals[key]) : ''}</div>`,
  );
  return html`<dl class="stats totals" aria-label="Totals of the range">
${rows}
</dl>`;
}

/** The range as people read it: "29 Oct 2026 – 27 Nov 2026 · by day · Europe/Berlin". */
export function rangeText(report: StatsReport): string {
  const { answer } = report;
  const days = daysText(answer.from, answer.to, answer.timezone);
  return `${days} · ${answer.interval === 'hour' ? 'by hour' : 'by day'} · ${answer.timezone}`;
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

function download(view: StatsView, address: StatsAddress): SafeHtml {
  const { answer } = view.report;
  // The figures shown, filters and zone included; the CSV has no comparison.
  const fields = { from: answer.from, to: answer.to, interval: answer.interval, compare: undefined };
  const href = address.href(fields, `${statsPath(view.frame, view.link)}.csv`);
  return html`<section class="card download" id="download" aria-labelledby="download-heading">
<h2 id="download-heading">Download</h2>
<p><a class="button secondary small" href="${href}" download>Download CSV</a></p>
<details class="more"><summary>What the CSV holds</summary>
<p class="hint">Seven columns: <code>dimension,value,clicks,unique_visitors,leads,sales,revenue</code>
(leads, sales and revenue, as <code>EUR:4900</code> in minor units, on the total row and each day's row). First the totals
(<code>total,all</code> with clicks and unique visitors, <code>total,bot_hits</code>, <code>total,qr_scans</code>),
then one <code>series</code> row per ${answer.interval} with its start (RFC 3339, UTC), clicks and unique visitors,
then one row per value of each breakdown with its clicks: <code>referrer</code> (host, or <code>direct</code>),
<code>country</code> (ISO code, <code>ZZ</code> when unknown), <code>device</code>, <code>os</code>, <code>browser</code>,
<code>language</code>, <code>source</code> (<code>qr</code> or <code>link</code>), <code>bot</code> (hits by kind),
<code>referrer_source</code>, <code>utm_source</code>, <code>utm_medium</code> and <code>utm_campaign</code>.
Filtered, it holds the filtered figures.
Each breakdown lists its top 50 values and sums the rest as <code>other</code>.</p>
</details>
</section>`;
}

export function statsPage(view: StatsView): string {
  const { link, report } = view;
  const subject: Subject = link ? 'the link' : 'one of your links';
  const address = addressOf(view);
  // The workspace's page is in the navigation; one link's leads back to the link.
  const linkPath = link && here(view.frame, `/links/${link.code}`);
  const back = linkPath
    ? html`<p class="back"><a href="${view.domain === undefined ? linkPath : `${linkPath}?${new URLSearchParams({ domain: view.domain })}`}">← Link ${link.code}</a></p>`
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
${rangePicker(view, address)}</div>
${errorNotice(error)}
${statsContext(report, address)}
<section class="card" id="series" aria-labelledby="series-heading"><h2 id="series-heading" class="visually-hidden">Clicks and unique visitors</h2>
${totals(report)}${conversionTotals(report.answer)}${seriesChart(report.answer, subject)}</section>
${funnelCard(report.answer, link?.tracksConversions ?? false)}${variantsCard(report.answer, link)}
${link ? '' : livePanel(here(view.frame, '/stats/live'))}
${view.top ? topLinksCard(view.top, report.answer, address.filters.length > 0) : ''}
${breakdownCards(report.answer, subject, address)}
${download(view, address)}`,
  });
}
