import type { Frame } from '../../../web/frame.ts';
import { html } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import type { LinkDetail } from '../dashboard.ts';
import { chartBox, copyableShortUrl, deleteLinkForm, longUrlLink, qrImage, when } from './link-parts.ts';

/** GET /dashboard/links/<code>: one link, its clicks over 30 days, and its QR code. */
export function linkPage(frame: Frame, baseUrl: URL, detail: LinkDetail): string {
  const { link, group } = detail;
  const total = detail.chart.clicks.reduce((sum, n) => sum + n, 0);
  return page({
    title: `Link ${link.code}`,
    signedInAs: frame.email,
    csrfToken: frame.csrfToken,
    styles: ['uplot.css', 'dashboard.css'],
    scripts: ['uplot.js', 'dashboard.js'],
    data: { chart: detail.chart },
    body: html`<p><a href="/dashboard">← Dashboard</a></p>
<h1>Link <code>${link.code}</code></h1>
<div class="link-detail">
<section class="card">
<dl class="facts">
  <dt>Short URL</dt><dd>${copyableShortUrl(baseUrl, link.code)}</dd>
  <dt>Long URL</dt><dd>${longUrlLink(link)}</dd>
  <dt>Title</dt><dd class="title">${link.title || html`<span class="hint">none</span>`}</dd>
  <dt>Group</dt><dd>${group ? html`${group.name} (<code>${group.apiId}</code>, ID ${group.id})` : html`<span class="hint">none</span>`}</dd>
  <dt>Clicks</dt><dd data-clicks="${link.clicks}">${link.clicks}</dd>
  <dt>Bot hits</dt><dd>${link.botHits} <span class="hint">(previews, prefetches and crawlers; not counted as clicks)</span></dd>
  <dt>Created</dt><dd>${when(link.createdAt)}</dd>
</dl>
${deleteLinkForm(link.code, frame.csrfToken, '/dashboard')}
</section>
<section class="card">${qrImage(baseUrl, link.code)}</section>
</div>
<section class="card"><h2>Clicks, last 30 days</h2>${chartBox(`Clicks per day on ${link.code}`, total)}</section>`,
  });
}
