import { dailyBars } from '../../../web/charts.ts';
import type { Frame } from '../../../web/frame.ts';
import { html } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import type { LinkDetail } from '../dashboard.ts';
import { copyableShortUrl, deleteLinkForm, longUrlLink, qrImage, when } from './link-parts.ts';

/** GET /dashboard/links/<code>: one link, its clicks over 30 days, and its QR code. */
export function linkPage(frame: Frame, baseUrl: URL, detail: LinkDetail): string {
  const { link, group } = detail;
  const total = detail.chart.clicks.reduce((sum, n) => sum + n, 0);
  const chart =
    total === 0
      ? html`<div class="empty" data-state="no-clicks"><p>No clicks in the last 30 days.</p>
<p class="hint">Share the short URL or the QR code; each browser that follows it is counted here, by day.</p></div>`
      : dailyBars(
          { days: detail.chart.days, values: detail.chart.clicks },
          `Clicks per day on ${link.code}`,
          'click',
        );
  return page({
    title: `Link ${link.code}`,
    signedInAs: frame.email,
    csrfToken: frame.csrfToken,
    styles: ['dashboard.css'],
    scripts: ['dashboard.js'],
    body: html`<p><a href="/dashboard">← Dashboard</a></p>
<div class="page-head"><h1>Link <code>${link.code}</code></h1>
<dl class="stats">
  <div><dt>Clicks</dt><dd data-clicks="${link.clicks}">${link.clicks.toLocaleString('en-US')}</dd></div>
  <div><dt>Bot hits</dt><dd>${link.botHits.toLocaleString('en-US')}</dd></div>
  <div><dt>Created</dt><dd class="small">${when(link.createdAt)}</dd></div>
</dl></div>
<div class="link-detail">
<section class="card" aria-labelledby="facts-heading">
<h2 id="facts-heading">Where it goes</h2>
<dl class="facts">
  <dt>Short URL</dt><dd>${copyableShortUrl(baseUrl, link.code)}</dd>
  <dt>Long URL</dt><dd>${longUrlLink(link)}</dd>
  <dt>Title</dt><dd class="title">${link.title || html`<span class="hint">none</span>`}</dd>
  <dt>Group</dt><dd>${group ? html`${group.name} (<code>${group.apiId}</code>, ID ${group.id})` : html`<span class="hint">none</span>`}</dd>
</dl>
<p class="hint">Bot hits are link previews, prefetches and crawlers: redirected, never counted as clicks.</p>
${deleteLinkForm(link.code, frame.csrfToken, '/dashboard')}
</section>
<section class="card" aria-labelledby="qr-heading"><h2 id="qr-heading">QR code</h2>${qrImage(baseUrl, link.code)}</section>
</div>
<section class="card" aria-labelledby="chart-heading"><h2 id="chart-heading">Clicks, last 30 days</h2>${chart}</section>`,
  });
}
