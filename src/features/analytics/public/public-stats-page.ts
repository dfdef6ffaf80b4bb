import { html } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { rangeText, totals } from '../pages/stats-page.ts';
import { breakdownCards, seriesChart } from '../pages/stats-tables.ts';
import type { StatsReport } from '../visit-stats.ts';

/**
 * A link's public stats page, /<code>+ on its domain (docs/api.md §19): the figures and charts of
 * that link alone, under a visitor's header — no workspace, owner, title, target or navigation —
 * and kept out of search engines.
 */
export function publicStatsPage(view: { host: string; code: string; report: StatsReport }): string {
  const { host, code, report } = view;
  const short = `${host}/${code}`;
  return page({
    chrome: 'visitor',
    title: `Stats of ${short}`,
    noindex: true,
    description: `Public visit stats of the short link ${short}.`,
    styles: ['stats.css'],
    body: html`<div class="stats-head"><div class="stats-title">
<h1 class="short-url" data-code="${code}"><span class="host">${host}/</span><span class="code">${code}</span></h1>
<p class="hint" data-range="${report.answer.from}/${report.answer.to}">${rangeText(report)}</p></div></div>
<section class="card" id="series" aria-labelledby="series-heading"><h2 id="series-heading" class="visually-hidden">Clicks and unique visitors</h2>
${totals(report)}${seriesChart(report.answer, 'the link')}</section>
${breakdownCards(report.answer, 'the link')}
<p class="hint">The owner of this link made its stats public. Snip keeps no address, user agent or other detail that identifies a visitor.</p>`,
  });
}
