import type { LinkOrder } from '../../../core/link-query.ts';
import type { LinkOrigins } from '../../../core/short-url.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { bulkBar } from './bulk-bar.ts';
import type { LinkFilter, Overview } from './dashboard.ts';
import { groupOptions } from './group-options.ts';
import { linkRow, type RowContext } from './link-row.ts';
import { dashboardHref } from './links-href.ts';

/** The dashboard's list of links: filters, a row per link (two lines on a phone), bulk changes, order and pages. */

export { groupOptions } from './group-options.ts';
export { dashboardHref } from './links-href.ts';

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
  /** Whether the user may create links: an empty list then points to the form above. */
  canCreate?: boolean;
  /** The API keys page, when the user may open it. */
  keysHref?: string;
  /** The workspace's time zone, which dates are shown in; UTC when untold. */
  zone?: string;
}

/** A column heading that orders the list by it (most first); the current order is announced. */
function sortable(view: LinksView, order: LinkOrder, label: string, className: string): SafeHtml {
  const current = view.filter.order === order;
  const up = current && view.filter.ascending === true;
  const sort = current ? html` aria-sort="${up ? 'ascending' : 'descending'}"` : html``;
  return html`<th scope="col" class="${className}"${sort}><a href="${dashboardHref(view.base, view.filter, { order })}">${label}${current ? (up ? ' ↑' : ' ↓') : ''}</a></th>`;
}

/** How to create links from a script: only for a plan with API access. */
function apiHelp(view: LinksView): SafeHtml {
  if (!view.overview.apiAccess) return html``;
  const keys = view.keysHref
    ? html`a key from <a href="${view.keysHref}">API keys</a>`
    : html`an API key of this workspace`;
  return html`<details class="more api-help"><summary>Or create links from a script</summary>
<pre><code>curl ${view.origins.origin(0)}/create -H 'Content-Type: application/json' \\
  -H "X-API-Key: $KEY" -d '{"url": "https://example.com/a/long/page"}'</code></pre>
<p class="hint">$KEY is ${keys}.</p></details>`;
}

function emptyState(view: LinksView, filtered: boolean): SafeHtml {
  if (filtered) {
    return html`<div class="empty" data-state="no-links"><p>No link matches these filters.</p><p><a href="${view.base}">Show every link</a></p></div>`;
  }
  return html`<div class="empty" data-state="no-links">
<p><strong>Your links will show here</strong>, each with its clicks.</p>
${view.canCreate ? html`<p><a href="#create-url">Shorten your first URL</a> with the form above.</p>` : html``}
${apiHelp(view)}
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

function filterForm(view: LinksView, filtered: boolean): SafeHtml {
  const { filter, overview, base } = view;
  const selected = filter.groupId === undefined ? '' : String(filter.groupId);
  const cleared = {
    ...filter,
    search: '',
    groupId: undefined,
    tag: undefined,
    domain: undefined,
    state: undefined,
  };
  const tag = filter.tag
    ? html`<input type="hidden" name="tag" value="${filter.tag}"><a class="pill tag-pill removable" href="${dashboardHref(base, { ...filter, tag: undefined })}" aria-label="Tag ${filter.tag}: show links with any tag">${filter.tag} <span aria-hidden="true">×</span></a>`
    : html``;
  return html`<form method="get" action="${base}" class="row filter" role="search" aria-label="Filter links">
  <label class="grow">Search code, URL, title or tag <input type="search" name="q" value="${filter.search}"></label>
  <label>Group <select name="group">${groupOptions(overview.groups, selected, 'All groups')}</select></label>
  ${filter.order === 'created' ? html`` : html`<input type="hidden" name="sort" value="${filter.order}">`}
  ${filter.ascending ? html`<input type="hidden" name="order" value="asc">` : html``}
  ${(filter.tags ?? []).slice(1).map((more) => html`<input type="hidden" name="tag" value="${more}">`)}
  ${filter.domain ? html`<input type="hidden" name="domain" value="${filter.domain.host}">` : html``}
  ${filter.state ? html`<input type="hidden" name="state" value="${filter.state}">` : html``}
  <button type="submit" class="secondary">Filter</button>
  ${tag}${filtered ? html`<a href="${dashboardHref(base, cleared)}" class="button ghost">Clear</a>` : html``}
</form>`;
}

function table(view: LinksView): SafeHtml {
  const { overview, filter } = view;
  const context: RowContext = {
    origins: view.origins,
    base: view.base,
    filter,
    groups: new Map(overview.groups.map((group) => [group.id, group])),
    tags: overview.tags,
    canEdit: view.canEdit,
    csrfToken: view.csrfToken,
    back: dashboardHref(view.base, filter, { after: filter.after, before: filter.before }),
    now: Date.now(),
    zone: view.zone,
  };
  const pick = view.canEdit
    ? html`<th scope="col" class="pick"><input type="checkbox" data-pick-all aria-label="Select every link on this page"></th>`
    : html``;
  return html`<div class="table-wrap"><table class="links${view.canEdit ? ' selectable' : ''}">
<colgroup>${view.canEdit ? html`<col class="col-pick">` : html``}<col class="col-link"><col class="col-clicks"><col class="col-created"><col class="col-actions"></colgroup>
<thead><tr>${pick}<th scope="col" class="col-link">Link</th>${sortable(view, 'clicks', 'Clicks', 'num')}${sortable(view, 'created', 'Created', 'created')}<th scope="col" class="actions"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${overview.links.links.map((link) => linkRow(context, link))}</tbody></table></div>`;
}

export function linksCard(view: LinksView): SafeHtml {
  const { overview, filter } = view;
  const filtered =
    filter.search !== '' ||
    filter.groupId !== undefined ||
    filter.tag !== undefined ||
    filter.domain !== undefined ||
    filter.state !== undefined;
  const total = overview.links.total ?? 0;
  const listed = overview.links.links.length > 0;
  return html`<section class="card" id="links" aria-labelledby="links-heading">
<h2 id="links-heading">Links <span class="hint" id="links-total" data-refresh data-total="${total}">${total.toLocaleString('en-US')} ${filtered ? 'matching' : 'in all'}</span></h2>
${total === 0 && !filtered ? html`` : filterForm(view, filtered)}
${view.canEdit && listed ? bulkBar(view.base, overview.groups, view.csrfToken) : html``}
<div id="links-list" data-refresh>
${listed ? table(view) : emptyState(view, filtered)}
${pager(view)}
</div>
</section>`;
}
