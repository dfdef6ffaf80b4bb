import type { LinkOrder } from '../../../core/link-query.ts';
import type { LinkOrigins } from '../../../core/short-url.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { bulkBar } from './bulk-bar.ts';
import type { LinkFilter, Overview } from './dashboard.ts';
import { type FilterView, filterChips, filterForm, isFiltered } from './link-filters.ts';
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
  /** The hosts the workspace's links may be on: a choice of domain when more than one. */
  hosts?: readonly string[];
}

/** Orders whose first click lists the lowest first: titles from A. */
const ASCENDING_FIRST: ReadonlySet<LinkOrder> = new Set(['title']);

/**
 * A column heading that orders the list by it (most first; titles from A), the current order
 * announced; clicked again, it flips the order.
 */
function sortable(view: LinksView, order: LinkOrder, label: string, className: string): SafeHtml {
  const current = view.filter.order === order;
  const up = current ? view.filter.ascending === true : false;
  const next = current ? !up : ASCENDING_FIRST.has(order);
  const sort = current ? html` aria-sort="${up ? 'ascending' : 'descending'}"` : html``;
  const href = dashboardHref(view.base, view.filter, { order, ascending: next });
  return html`<th scope="col" class="${className}"${sort}><a href="${href}" data-sort="${order}">${label}<span class="sort-mark" aria-hidden="true">${current ? (up ? ' ↑' : ' ↓') : ''}</span></a></th>`;
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

function table(view: LinksView): SafeHtml {
  const { overview, filter } = view;
  const context: RowContext = {
    origins: view.origins,
    base: view.base,
    filter,
    groups: new Map(overview.groups.map((group) => [group.id, group])),
    tags: overview.tags,
    canEdit: view.canEdit,
    canCreate: view.canCreate === true,
    csrfToken: view.csrfToken,
    back: dashboardHref(view.base, filter, { after: filter.after, before: filter.before }),
    now: Date.now(),
    zone: view.zone,
  };
  const pick = view.canEdit
    ? html`<th scope="col" class="pick"><input type="checkbox" data-pick-all aria-label="Select every link on this page"></th>`
    : html``;
  return html`<div class="table-wrap"><table class="links${view.canEdit ? ' selectable' : ''}">
<colgroup>${view.canEdit ? html`<col class="col-pick">` : html``}<col class="col-link"><col class="col-clicks"><col class="col-last"><col class="col-created"><col class="col-actions"></colgroup>
<thead><tr>${pick}${sortable(view, 'title', 'Link', 'col-link')}${sortable(view, 'clicks', 'Clicks', 'num')}${sortable(view, 'last_click', 'Last click', 'last-click')}${sortable(view, 'created', 'Created', 'created')}<th scope="col" class="actions"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${overview.links.links.map((link) => linkRow(context, link))}</tbody></table></div>`;
}

export function linksCard(view: LinksView): SafeHtml {
  const { overview, filter } = view;
  const filtered = isFiltered(filter);
  const total = overview.links.total ?? 0;
  const listed = overview.links.links.length > 0;
  const filters: FilterView = {
    base: view.base,
    filter,
    groups: overview.groups,
    tags: overview.allTags,
    hosts: view.hosts ?? [],
  };
  const shown = total === 0 && !filtered ? html`` : html`${filterForm(filters)}${filterChips(filters)}`;
  return html`<section class="card" id="links" aria-labelledby="links-heading">
<h2 id="links-heading">Links <span class="hint" id="links-total" data-refresh data-total="${total}">${total.toLocaleString('en-US')} ${filtered ? 'matching' : 'in all'}</span></h2>
${shown}
${view.canEdit && (listed || filtered) ? bulkBar(view.base, overview.groups, view.csrfToken) : html``}
<div id="links-list" data-refresh>
${listed ? table(view) : emptyState(view, filtered)}
${pager(view)}
</div>
</section>`;
}
