import { isApiErrorCode } from '../../../core/errors.ts';
import { MAX_TITLE_LENGTH } from '../../../core/link-fields.ts';
import type { LinkOrigins } from '../../../core/short-url.ts';
import { shortUrl } from '../../../core/short-url.ts';
import { dailyBars } from '../../../web/charts.ts';
import { type Frame, here, mayHere } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../../web/notices.ts';
import { longUrlLink, when } from '../../../web/page-parts.ts';
import { namesPreview, namesUtm, previewFieldset, utmFieldset } from './campaign-fields.ts';
import { type CampaignFault, campaignFormOf, utmValuesOf } from './campaign-form.ts';
import type { LinkDetail, LinkForm } from './dashboard.ts';
import { copyableShortUrl, deleteLinkForm, linkPath } from './link-parts.ts';
import { groupOptions } from './links-table.ts';
import { previewCard } from './preview-card.ts';
import { qrSection } from './qr-designer.ts';
import { ruleFacts } from './rule-badges.ts';
import { ruleFields } from './rule-fields.ts';
import { ruleFormOf } from './rule-form.ts';

/** GET /dashboard/links/<code>: one link, changed in place, its clicks over 30 days, and its QR code. */

export interface LinkView {
  frame: Frame;
  origins: LinkOrigins;
  detail: LinkDetail;
  done?: string;
  /** A refused change: the form shows the reason and what was sent. */
  error?: PageError;
  form?: LinkForm;
  /** The fields a refusal is about, when it is about the campaign fields: shown next to them. */
  fault?: CampaignFault;
}

const DONE: Record<string, string> = {
  saved: 'Saved. The short URL leads to the new state from now on.',
  unchanged: 'Nothing to save: the form matched the link.',
};

/** The UTM builder and the social preview, open when the link uses them or a refusal is about them. */
function campaignEdit(view: LinkView, form: LinkForm, error: PageError | undefined): SafeHtml {
  const { link } = view.detail;
  const fields = {
    id: 'edit',
    form: form.campaign ?? campaignFormOf(link),
    base: utmValuesOf(link.longUrl),
    url: form.url,
    card: cardOptions(view),
    fault: view.fault,
    error,
  };
  const open = (yes: boolean) => (yes ? html` open` : html``);
  return html`<details class="more"${open(view.fault === 'utm' || namesUtm(fields.form))}><summary>Campaign parameters (UTM) and query forwarding</summary>
  <div class="stack">${utmFieldset(fields)}</div></details>
  <details class="more"${open(view.fault === 'preview' || namesPreview(fields.form))}><summary>Link preview in chats</summary>
  <div class="stack">${previewFieldset(fields)}</div></details>`;
}

const cardOptions = (view: LinkView) => ({
  host: view.origins.hostOf(view.detail.link.domainId),
  fallbackTitle: view.detail.link.title || shortUrl(view.origins, view.detail.link),
});

function editCard(view: LinkView): SafeHtml {
  const { link } = view.detail;
  const form = view.form ?? {
    url: link.longUrl,
    title: link.title,
    group: link.groupId === null ? '' : String(link.groupId),
    rules: ruleFormOf(link),
    campaign: campaignFormOf(link),
  };
  const error: PageError | undefined = view.error && {
    code: view.error.code,
    message: isApiErrorCode(view.error.code)
      ? `Not saved. Error ${view.error.code}: ${view.error.message}`
      : view.error.message,
  };
  return html`<section class="card" id="edit" aria-labelledby="edit-heading">
<h2 id="edit-heading">Change the link</h2>
${view.fault ? html`` : errorNotice(error)}
<form method="post" action="${linkPath(here(view.frame, ''), view.origins, link)}" class="stack edit-link" data-link-form>
  ${csrfField(view.frame.csrfToken)}
  <label>Long URL <input type="text" name="url" inputmode="url" required spellcheck="false" value="${form.url}"></label>
  <label>Title <span class="hint">optional; shown in your list of links</span>
    <input type="text" name="title" maxlength="${MAX_TITLE_LENGTH}" value="${form.title}"></label>
  <label>Group <select name="group">${groupOptions(view.detail.groups, form.group, 'No group')}</select></label>
  ${ruleFields(form.rules ?? ruleFormOf(link), link)}
  ${campaignEdit(view, form, error)}
  <button type="submit">Save changes</button>
</form>
<p class="hint">A new long URL, and a new rule's URL, is checked as when a link is made: it is fetched and must answer.
The short code stays; saving counts as a request in this hour's window.</p>
</section>`;
}

export function linkPage(view: LinkView): string {
  const { frame, origins } = view;
  const { link, group } = view.detail;
  const base = here(frame);
  const canEdit = mayHere(frame, 'links:write');
  const total = view.detail.chart.clicks.reduce((sum, n) => sum + n, 0);
  const chart =
    total === 0
      ? html`<div class="empty" data-state="no-clicks"><p>No clicks in the last 30 days.</p>
<p class="hint">Share the short URL or the QR code; each browser that follows it is counted here, by day.</p></div>`
      : dailyBars(
          { days: view.detail.chart.days, values: view.detail.chart.clicks },
          `Clicks per day on ${link.code}`,
          'click',
        );
  return page({
    title: `Link ${link.code}`,
    frame: frame,
    styles: ['dashboard.css', 'link-tools.css'],
    scripts: ['dashboard.js', 'link-fields.js', 'qr-designer.js'],
    body: html`<p><a href="${base}">← Dashboard</a></p>
<div class="page-head"><h1>Link <code>${link.code}</code></h1>
<dl class="stats">
  <div><dt>Clicks</dt><dd data-clicks="${link.clicks}">${link.clicks.toLocaleString('en-US')}</dd></div>
  <div><dt>Bot hits</dt><dd>${link.botHits.toLocaleString('en-US')}</dd></div>
  <div><dt>Created</dt><dd class="small">${when(link.createdAt)}</dd></div>
</dl></div>
${doneNotice(view.done, DONE)}
<div class="link-detail">
<div class="cards">
<section class="card" aria-labelledby="facts-heading">
<h2 id="facts-heading">Where it goes</h2>
<dl class="facts">
  <dt>Short URL</dt><dd>${copyableShortUrl(origins, link)}</dd>
  <dt>Long URL</dt><dd>${longUrlLink(link)}</dd>
  <dt>Title</dt><dd class="title">${link.title || html`<span class="hint">none</span>`}</dd>
  <dt>Group</dt><dd>${group ? html`${group.name} (<code>${group.apiId}</code>, ID ${group.id})` : html`<span class="hint">none</span>`}</dd>
  ${ruleFacts(link, Date.now())}
  <dt>Its query</dt><dd data-forward-query="${link.forwardQuery}">${link.forwardQuery ? 'passed on to the target' : html`<span class="hint">not passed on</span>`}</dd>
</dl>
<p class="hint">Bot hits are link previews, prefetches and crawlers: redirected, never counted as clicks.</p>
${canEdit ? deleteLinkForm(linkPath(base, origins, link, '/delete'), link.code, frame.csrfToken, base) : ''}
</section>
${canEdit ? editCard(view) : ''}
</div>
<div class="cards">
<section class="card" aria-labelledby="qr-heading"><h2 id="qr-heading">QR code</h2>${qrSection(origins, link)}</section>
<section class="card" aria-labelledby="preview-heading"><h2 id="preview-heading">Link preview</h2>
${previewCard(campaignFormOf(link).preview, cardOptions(view))}</section>
</div>
</div>
<section class="card" aria-labelledby="chart-heading"><h2 id="chart-heading">Clicks, last 30 days</h2>${chart}
<p><a class="button secondary small" href="${linkPath(base, origins, link, '/stats')}">All visit stats</a> <span class="hint">referrers, countries, devices, QR scans…</span></p></section>`,
  });
}
