import type { Group, Link } from '../../../core/entities.ts';
import { DEFAULT_DOMAIN_ID } from '../../../core/link-key.ts';
import type { LinkOrder, LinkPosition } from '../../../core/link-query.ts';
import { type LinkOrigins, shortUrl } from '../../../core/short-url.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { day, longUrlLink, when } from '../../../web/page-parts.ts';
import type { LinkFilter, Overview } from './dashboard.ts';
import { copyableShortUrl, linkActions, linkPath } from './link-parts.ts';
import { ruleBadges } from './rule-badges.ts';

/** The dashboard's list of links: filters, one line per link (cards on a phone), order and pages. */

export interface LinksView {
  /** Each domain's origin: every link shows its own. */
  origins: LinkOrigins;
  /** The workspace's address, /w/<slug>. */
  base: string;
  /** Whether the user may change links (else no form to do it is shown). */
  canEdit: boolean;
  csrfToken: string;
  overview: Overview;
  filter: LinkFilter;
}

/** The dashboard's address for a filter, with some of it changed (a page position is dropped unless given). */
export function dashboardHref(
  base: string,
  filter: LinkFilter,
  change: { order?: LinkOrder; after?: LinkPosition; before?: LinkPosition } = {},
): string {
  const query = new URLSearchParams();
  if (filter.search) query.set('q', filter.search);
  if (filter.groupId !== undefined) query.set('group', String(filter.groupId));
  const order = change.order ?? filter.order;
  if (order !== 'created') query.set('order', order);
  if (change.after) query.set('after', `${change.after.value}.${change.after.id}`);
  if (change.before) query.set('before', `${change.before.value}.${change.before.id}`);
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}

export function groupOptions(groups: readonly Group[], selected: string, none: string): SafeHtml {
  return html`<option value="">${none}</option>${groups.map(
    (group) =>
      html`<option value="${group.id}"${selected === String(group.id) ? html` selected` : html``}>${group.name}</option>`,
  )}`;
}

/** A link's rule badges lead the line of its long URL, which keeps what room is left. */
function withBadges(badges: SafeHtml, url: SafeHtml): SafeHtml {
  return badges.html === '' ? url : html`<span class="url-line">${badges}${url}</span>`;
}

function row(view: LinksView, link: Link, groups: Map<number, Group>, back: string, now: number): SafeHtml {
  const group = link.groupId === null ? undefined : groups.get(link.groupId);
  const title = link.title || shortUrl(view.origins, link);
  const page = linkPath(view.base, view.origins, link);
  const actions = linkActions(
    page,
    linkPath(view.base, view.origins, link, '/delete'),
    link.code,
    view.csrfToken,
    back,
  );
  return html`<tr data-code="${link.code}">
<td data-label="Link"><a class="title truncate" href="${page}" title="${title}">${title}</a>${withBadges(ruleBadges(link, now), longUrlLink(link, true))}</td>
<td data-label="Short URL">${copyableShortUrl(view.origins, link)}</td>
<td data-label="Group"><span class="truncate">${group ? group.name : html`<span class="hint">none</span>`}</span></td>
<td data-label="Clicks" class="num" data-clicks="${link.clicks}">${link.clicks.toLocaleString('en-US')}</td>
<td data-label="Created" class="nowrap"><time datetime="${link.createdAt.toISOString()}" title="${when(link.createdAt)}">${day(link.createdAt)}</time></td>
<td class="actions">${view.canEdit ? actions : ''}</td>
</tr>`;
}

/** A column heading that orders the list by it (most first); the current order is announced. */
function sortable(view: LinksView, order: LinkOrder, label: string, numeric: boolean): SafeHtml {
  const current = view.filter.order === order;
  const sort = current ? html` aria-sort="descending"` : html``;
  return html`<th scope="col"${sort}${numeric ? html` class="num"` : html``}><a href="${dashboardHref(view.base, view.filter, { order })}">${label}${current ? ' ↓' : ''}</a></th>`;
}

function emptyState(view: LinksView, filtered: boolean): SafeHtml {
  if (filtered) {
    return html`<div class="empty" data-state="no-links"><p>No link matches these filters.</p><p><a href="${view.base}">Show every link</a></p></div>`;
  }
  const base = view.origins.origin(DEFAULT_DOMAIN_ID);
  return html`<div class="empty" data-state="no-links">
<p><strong>No links yet.</strong> Shorten a URL with the form above, or from a script with your API key:</p>
<pre><code>curl ${base}/create -H 'Content-Type: application/json' \\
  -H "X-API-Key: $KEY" -d '{"url": "https://example.com/a/long/page"}'</code></pre>
<p class="hint">Keys are made under <a href="${view.base}/keys">Keys</a>. Each link then shows here with its clicks.</p>
</div>`;
}

function pager(view: LinksView): SafeHtml {
  const { newer, older } = view.overview;
  if (!newer && !older) return html``;
  return html`<nav class="pager" aria-label="Pages of links">
${newer ? html`<a class="button secondary small" href="${dashboardHref(view.base, view.filter, { before: newer })}" rel="prev">← Newer</a>` : html`<span></span>`}
${older ? html`<a class="button secondary small" href="${dashboardHref(view.base, view.filter, { after: older })}" rel="next">Older →</a>` : html`<span></span>`}
</nav>`;
}

export function linksCard(view: LinksView): SafeHtml {
  const { overview, filter } = view;
  const groups = new Map(overview.groups.map((group) => [group.id, group]));
  const back = dashboardHref(view.base, filter, { after: filter.after, before: filter.before });
  const filtered = filter.search !== '' || filter.groupId !== undefined;
  const selected = filter.groupId === undefined ? '' : String(filter.groupId);
  const total = overview.links.total ?? 0;
  // Expired or not is judged once for the whole page.
  const now = Date.now();
  return html`<section class="card" id="links" aria-labelledby="links-heading">
<h2 id="links-heading">Links <span class="hint" data-total="${total}">${total.toLocaleString('en-US')} ${filtered ? 'matching' : 'in all'}</span></h2>
${
  total === 0 && !filtered
    ? html``
    : html`<form method="get" action="${view.base}" class="row filter" role="search" aria-label="Filter links">
  <label class="grow">Search URL or title <input type="search" name="q" value="${filter.search}"></label>
  <label>Group <select name="group">${groupOptions(overview.groups, selected, 'All groups')}</select></label>
  ${filter.order === 'created' ? html`` : html`<input type="hidden" name="order" value="${filter.order}">`}
  <button type="submit" class="secondary">Filter</button>
  ${filtered ? html`<a href="${dashboardHref(view.base, { ...filter, search: '', groupId: undefined })}" class="button ghost">Clear</a>` : html``}
</form>`
}
${
  overview.links.links.length === 0
    ? emptyState(view, filtered)
    : html`<div class="table-wrap"><table class="links">
<colgroup><col class="col-link"><col class="col-short"><col class="col-group"><col class="col-clicks"><col class="col-created"><col class="col-actions"></colgroup>
<thead><tr><th scope="col">Link</th><th scope="col">Short URL</th><th scope="col">Group</th>${sortable(view, 'clicks', 'Clicks', true)}${sortable(view, 'created', 'Created', false)}<th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${overview.links.links.map((link) => row(view, link, groups, back, now))}</tbody></table></div>`
}
${pager(view)}
</section>`;
}
