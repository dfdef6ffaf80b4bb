import type { Link } from '../../../core/entities.ts';
import { shortUrl } from '../../../core/short-url.ts';
import { dailyBars } from '../../../web/charts.ts';
import { here, mayHere, zoneHere } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { doneNotice } from '../../../web/notices.ts';
import { day, longUrlLink, when } from '../../../web/page-parts.ts';
import { campaignFormOf } from './campaign-form.ts';
import type { LinkFilter } from './dashboard.ts';
import { brokenBadge, brokenNotice, healthFact } from './health-parts.ts';
import { cardOptions, editCard, type LinkView } from './link-edit.ts';

export type { LinkView } from './link-edit.ts';

import { archivedBadge, archiveLinkForm, copyableShortUrl, deleteLinkForm, linkPath } from './link-parts.ts';
import { linkChips } from './link-row.ts';
import { previewCard } from './preview-card.ts';
import { qrSection } from './qr-designer.ts';
import { ruleBadges, ruleFacts } from './rule-badges.ts';

/**
 * GET /w/<slug>/links/<code>: one link — its short link, figures and clicks over 30 days first,
 * then its settings, QR code and preview card; `?edit` (or a refused change) opens the edit panel
 * beside the QR code and the card.
 */

const DONE: Record<string, string> = {
  saved: 'Saved.',
  unchanged: 'Nothing to save: nothing was changed.',
  archived: 'Archived: the link is hidden from the list of links, and still redirects and counts.',
  unarchived: 'The link is back in the list of links.',
};

/** The same, after a change that gave the link a new target. */
const DONE_NEW_TARGET: Record<string, string> = {
  ...DONE,
  saved: 'Saved. The short link leads to the new target from now on.',
};

const figure = (n: number) => n.toLocaleString('en-US');

/** The address of the link page with the edit panel open. */
export function editPath(pagePath: string): string {
  return `${pagePath}${pagePath.includes('?') ? '&' : '?'}edit`;
}

/** The dashboard's list as it opens, for the chips' filters. */
const WHOLE_LIST: LinkFilter = { search: '', groupId: undefined, order: 'created' };

function head(view: LinkView, pagePath: string): SafeHtml {
  const { link, group } = view.detail;
  const { frame, origins } = view;
  const base = here(frame);
  const canEdit = mayHere(frame, 'links:write');
  const actions = html`<div class="link-actions">${
    canEdit && !view.editing
      ? html`<a class="button" href="${editPath(pagePath)}" data-edit>Edit</a>`
      : html``
  }<a class="button secondary" href="${linkPath(base, origins, link, '/stats')}">Stats</a>${
    canEdit
      ? archiveLinkForm(
          linkPath(base, origins, link, '/archive'),
          link.archived,
          frame.csrfToken,
          pagePath,
          'secondary',
        )
      : ''
  }${
    canEdit ? deleteLinkForm(linkPath(base, origins, link, '/delete'), link.code, frame.csrfToken, base) : ''
  }</div>`;
  return html`<div class="link-head" data-code="${link.code}">
<div class="link-name"><h1>${link.title || link.code}</h1>
<div class="short-link">${copyableShortUrl(origins, link)}</div>
<p class="target"><span aria-hidden="true">→ </span>${longUrlLink(link, true)}</p>
${linkChips(base, WHOLE_LIST, { group, tags: view.detail.tags, badges: html`${brokenBadge(link)}${archivedBadge(link)}${ruleBadges(link, Date.now(), zoneHere(view.frame))}` })}</div>
${actions}</div>`;
}

/** When the latest human click was counted, in the workspace's zone; "never" before the first. */
function lastClick(view: LinkView): SafeHtml {
  const at = view.detail.link.lastClickedAt;
  if (!at) return html`<span class="hint">never</span>`;
  return html`<time datetime="${at.toISOString()}">${when(at, zoneHere(view.frame))}</time>`;
}

function figures(view: LinkView, recent: number): SafeHtml {
  const { link } = view.detail;
  return html`<dl class="stats link-figures" aria-label="Figures">
  <div><dt>Clicks</dt><dd data-clicks="${link.clicks}">${figure(link.clicks)}</dd></div>
  <div><dt>Last 30 days</dt><dd>${figure(recent)}</dd></div>
  <div><dt>Bot hits</dt><dd>${figure(link.botHits)}</dd></div>
  <div><dt>Last click</dt><dd class="small" data-last-click>${lastClick(view)}</dd></div>
  <div><dt>Created</dt><dd class="small"><time datetime="${link.createdAt.toISOString()}" title="${when(link.createdAt, zoneHere(view.frame))}">${day(link.createdAt, zoneHere(view.frame))}</time></dd></div>
</dl>`;
}

function chartCard(view: LinkView, total: number): SafeHtml {
  const { link } = view.detail;
  const chart =
    total === 0
      ? html`<div class="empty" data-state="no-clicks"><p>No clicks in the last 30 days.</p>
<p class="hint">Share the short link or its QR code: each visit shows here.</p></div>`
      : dailyBars(
          { days: view.detail.chart.days, values: view.detail.chart.clicks },
          'Clicks per day',
          'click',
        );
  return html`<section class="card" id="chart" aria-labelledby="chart-heading"><div class="head-row"><h2 id="chart-heading">Clicks, last 30 days</h2>
<a class="button ghost small" href="${linkPath(here(view.frame), view.origins, link, '/stats')}">All stats</a></div>${chart}</section>`;
}

/** The codes a rename left: each still leads to the link and counts on it. */
function formerCodes(aliases: readonly string[]): SafeHtml {
  if (aliases.length === 0) return html``;
  const codes = aliases.map((code, i) => html`${i === 0 ? '' : ', '}<code>${code}</code>`);
  return html`<dt>Earlier codes</dt><dd data-aliases>${codes} <span class="hint">still lead here</span></dd>`;
}

function settingsCard(view: LinkView): SafeHtml {
  const { link, group } = view.detail;
  return html`<section class="card" aria-labelledby="facts-heading">
<h2 id="facts-heading">Settings</h2>
<dl class="facts">
  <dt>Group</dt><dd>${group ? html`${group.name} <span class="hint">(<code>${group.apiId}</code>)</span>` : html`<span class="hint">none</span>`}</dd>
  ${healthFact(link, zoneHere(view.frame))}
  ${ruleFacts(link, Date.now(), zoneHere(view.frame))}
  ${formerCodes(view.detail.aliases)}
  <dt>Archived</dt><dd data-fact="archived">${link.archived ? 'yes: hidden from the list of links; it still redirects and counts' : html`<span class="hint">no</span>`}</dd>
  <dt>Public stats</dt><dd data-fact="public-stats">${link.publicStats ? html`anyone can see them at <a href="${shortUrl(view.origins, link)}+">${shortUrl(view.origins, link)}+</a>` : html`<span class="hint">no: only members see its clicks</span>`}</dd>
  <dt>Query</dt><dd data-forward-query="${link.forwardQuery}">${link.forwardQuery ? 'passed on to the target' : html`<span class="hint">not passed on</span>`}</dd>
  <dt>Conversions</dt><dd data-conversions="${link.tracksConversions}">${conversionFact(link)}</dd>
</dl>
<p class="hint">Link previews, prefetches and crawlers are redirected but counted as bot hits, not clicks.</p>
</section>`;
}

function qrCard(view: LinkView): SafeHtml {
  return html`<section class="card" id="qr" aria-labelledby="qr-heading"><h2 id="qr-heading">QR code</h2>${qrSection(view.origins, view.detail.link, view.designing === true)}</section>`;
}

function previewSection(view: LinkView): SafeHtml {
  return html`<section class="card" aria-labelledby="preview-heading"><h2 id="preview-heading">Link preview</h2>
${previewCard(campaignFormOf(view.detail.link).preview, cardOptions(view))}</section>`;
}

export function linkPage(view: LinkView): string {
  const { frame, origins } = view;
  const { link } = view.detail;
  const base = here(frame);
  const pagePath = linkPath(base, origins, link);
  const total = view.detail.chart.clicks.reduce((sum, n) => sum + n, 0);
  const editing = view.editing && mayHere(frame, 'links:write');
  const body = editing
    ? html`<div class="link-detail">${editCard(view)}<div class="cards">${qrCard(view)}${previewSection(view)}</div></div>
${chartCard(view, total)}`
    : html`${figures(view, total)}
${chartCard(view, total)}
<div class="link-detail"><div class="cards">${settingsCard(view)}${previewSection(view)}</div><div class="cards">${qrCard(view)}</div></div>`;
  return page({
    title: editing ? `Edit ${link.title || link.code}` : link.title || `Link ${link.code}`,
    frame,
    current: base,
    styles: ['dashboard.css', 'link-tools.css', 'stats.css'],
    scripts: ['dashboard.js', 'link-fields.js', 'qr-designer.js', 'link-variants.js'],
    body: html`<p class="crumbs"><a href="${base}">← Links</a></p>
${head({ ...view, editing }, pagePath)}
${doneNotice(view.done, view.newTarget ? DONE_NEW_TARGET : DONE)}
${brokenNotice(link, zoneHere(frame))}
${body}`,
  });
}

/** Conversion tracking and what it counted (docs/api.md §20). */
function conversionFact(link: Link): SafeHtml {
  const whose = link.trackConversions === null ? ' (the workspace’s default)' : '';
  const revenue = Object.entries(link.revenue).map(([currency, amount]) => `${amount} ${currency}`);
  const figures = `${link.leads} leads, ${link.sales} sales${revenue.length > 0 ? ` (${revenue.join(', ')}, minor units)` : ''}`;
  return link.tracksConversions
    ? html`tracked${whose}: ${figures}`
    : html`<span class="hint">not tracked${whose}</span>${link.leads + link.sales > 0 ? html` · ${figures}` : html``}`;
}
