import type { Group, Link } from '../../../core/entities.ts';
import { isApiErrorCode } from '../../../core/errors.ts';
import type { Frame } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../../web/notices.ts';
import type { LinkFilter, Overview } from '../dashboard.ts';
import { chartBox, copyableShortUrl, deleteLinkForm, longUrlLink, when } from './link-parts.ts';

/** GET /dashboard: usage, a create form, the account's chart, its links (paged, filtered) and its groups. */

export interface DashboardView {
  frame: Frame;
  baseUrl: URL;
  overview: Overview;
  filter: LinkFilter;
  done?: string;
  /** The link just created (after the redirect), shown with its short URL. */
  created?: Link;
  /** A refused form: the create form shows the API's error code and message. */
  error?: PageError;
  draft?: { url: string; group: string };
}

const DONE: Record<string, string> = {
  'link-deleted': 'The link was deleted. Its code will never be given out again.',
  'group-created': 'The group was created.',
  'group-renamed': 'The group was saved.',
  'group-deleted': 'The group was deleted; its links stay, ungrouped.',
};

function pageHref(filter: LinkFilter, pageNumber: number): string {
  const query = new URLSearchParams();
  if (filter.search) query.set('q', filter.search);
  if (filter.groupId !== undefined) query.set('group', String(filter.groupId));
  if (pageNumber > 1) query.set('page', String(pageNumber));
  const text = query.toString();
  return text ? `/dashboard?${text}` : '/dashboard';
}

function requestsFigure(usage: Overview['usage']): SafeHtml {
  if (usage.requestsThisHour === undefined) {
    return html`<p class="figure" data-usage="requests" data-unavailable="true">unavailable <span class="hint">of ${usage.rateLimit}: the request counters cannot be read right now</span></p>`;
  }
  return html`<p class="figure" data-usage="requests">${usage.requestsThisHour} <span class="hint">of ${usage.rateLimit}</span></p>
<meter min="0" max="${usage.rateLimit}" value="${usage.requestsThisHour}"></meter>`;
}

function usageCard(overview: Overview): SafeHtml {
  const { usage } = overview;
  const minutes = Math.ceil(usage.resetSeconds / 60);
  return html`<section class="card usage" aria-label="Usage">
<div><h2>Links</h2><p class="figure" data-usage="links">${usage.links} <span class="hint">of ${usage.quota}</span></p>
<meter min="0" max="${usage.quota}" value="${usage.links}"></meter></div>
<div><h2>Requests this hour</h2>${requestsFigure(usage)}
<p class="hint">Shared by the API key and this dashboard; resets in ${minutes} min.</p></div>
</section>`;
}

function groupOptions(groups: readonly Group[], selected: string, none: string): SafeHtml {
  return html`<option value="">${none}</option>${groups.map(
    (group) =>
      html`<option value="${group.id}"${selected === String(group.id) ? html` selected` : html``}>${group.name} (${group.apiId})</option>`,
  )}`;
}

function createCard(view: DashboardView): SafeHtml {
  const draft = view.draft ?? { url: '', group: '' };
  const error = view.error && isApiErrorCode(view.error.code) ? view.error : undefined;
  return html`<section class="card" id="create">
<h2>Shorten a URL</h2>
${error ? errorNotice({ code: error.code, message: `Error ${error.code}: ${error.message}` }) : html``}
${
  view.created
    ? html`<p class="notice" role="status" data-done="link-created">Created ${copyableShortUrl(view.baseUrl, view.created.code)}</p>`
    : html``
}
<form method="post" action="/dashboard/links" class="row">
  ${csrfField(view.frame.csrfToken)}
  <label class="grow">Long URL <input type="text" name="url" inputmode="url" required placeholder="https://example.com/a/long/page" value="${draft.url}"></label>
  <label>Group <select name="group">${groupOptions(view.overview.groups, draft.group, 'No group')}</select></label>
  <button type="submit">Shorten</button>
</form>
<p class="hint">The same checks as <code>POST /create</code>: the target is fetched and checked, and the hourly limit counts.</p>
</section>`;
}

function linkRow(view: DashboardView, link: Link, groups: Map<number, Group>, back: string): SafeHtml {
  const group = link.groupId === null ? undefined : groups.get(link.groupId);
  return html`<tr data-code="${link.code}">
<td><a href="/dashboard/links/${link.code}" class="mono">${link.code}</a></td>
<td>${copyableShortUrl(view.baseUrl, link.code)}</td>
<td>${longUrlLink(link)}</td>
<td class="title">${link.title}</td>
<td>${group ? group.name : html`<span class="hint">—</span>`}</td>
<td class="num" data-clicks="${link.clicks}">${link.clicks}</td>
<td class="nowrap">${when(link.createdAt)}</td>
<td>${deleteLinkForm(link.code, view.frame.csrfToken, back)}</td>
</tr>`;
}

function linksCard(view: DashboardView): SafeHtml {
  const { overview, filter } = view;
  const groups = new Map(overview.groups.map((group) => [group.id, group]));
  const back = pageHref(filter, overview.page);
  const selected = filter.groupId === undefined ? '' : String(filter.groupId);
  const rows = overview.links.links.map((link) => linkRow(view, link, groups, back));
  const filtered = filter.search !== '' || filter.groupId !== undefined;
  return html`<section class="card" id="links">
<h2>Links <span class="hint" data-total="${overview.links.total}">${overview.links.total} ${filtered ? 'matching' : 'in all'}</span></h2>
<form method="get" action="/dashboard" class="row filter" role="search">
  <label class="grow">Search URL or title <input type="search" name="q" value="${filter.search}"></label>
  <label>Group <select name="group">${groupOptions(overview.groups, selected, 'All groups')}</select></label>
  <button type="submit" class="secondary">Filter</button>
  ${filtered ? html`<a href="/dashboard" class="button secondary">Clear</a>` : html``}
</form>
${
  rows.length === 0
    ? html`<p class="hint" data-state="no-links">${filtered ? 'No link matches.' : 'No links yet.'}</p>`
    : html`<div class="table-wrap"><table class="links">
<thead><tr><th>Code</th><th>Short URL</th><th>Long URL</th><th>Title</th><th>Group</th><th class="num">Clicks</th><th>Created</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}
${pager(filter, overview)}
</section>`;
}

function pager(filter: LinkFilter, overview: Overview): SafeHtml {
  if (overview.pages <= 1) return html``;
  const { page: current, pages } = overview;
  return html`<nav class="pager" aria-label="Pages">
${current > 1 ? html`<a href="${pageHref(filter, current - 1)}" rel="prev">← Newer</a>` : html`<span></span>`}
<span data-page="${current}" data-pages="${pages}">Page ${current} of ${pages}</span>
${current < pages ? html`<a href="${pageHref(filter, current + 1)}" rel="next">Older →</a>` : html`<span></span>`}
</nav>`;
}

function groupItem(group: Group, csrfToken: string): SafeHtml {
  return html`<li class="group" data-group-id="${group.id}">
<p class="group-ids">ID <code>${group.id}</code> · API identifier <code>${group.apiId}</code> <span class="hint">— either one is the <code>group</code> of <code>/create</code></span></p>
<form method="post" action="/dashboard/groups/${group.id}" class="row">
  ${csrfField(csrfToken)}
  <label class="grow">Name <input type="text" name="name" required maxlength="100" value="${group.name}"></label>
  <label class="grow">API identifier <input type="text" name="api_id" required maxlength="64" value="${group.apiId}" spellcheck="false"></label>
  <button type="submit" class="secondary">Save</button>
</form>
<form method="post" action="/dashboard/groups/${group.id}/delete" class="inline" data-confirm="Delete the group ${group.name}? Its links stay, without a group.">
  ${csrfField(csrfToken)}<button type="submit" class="danger small">Delete group</button>
</form>
</li>`;
}

function groupsCard(view: DashboardView): SafeHtml {
  const { groups } = view.overview;
  return html`<section class="card" id="groups">
<h2>Groups</h2>
<form method="post" action="/dashboard/groups" class="row">
  ${csrfField(view.frame.csrfToken)}
  <label class="grow">Name <input type="text" name="name" required maxlength="100"></label>
  <label class="grow">API identifier <span class="hint">(optional; from the name if empty)</span>
    <input type="text" name="api_id" maxlength="64" spellcheck="false" placeholder="spring-sale"></label>
  <button type="submit">Create group</button>
</form>
${groups.length === 0 ? html`<p class="hint">No groups yet.</p>` : html`<ul class="groups">${groups.map((group) => groupItem(group, view.frame.csrfToken))}</ul>`}
</section>`;
}

export function dashboardPage(view: DashboardView): string {
  const total = view.overview.chart.clicks.reduce((sum, n) => sum + n, 0);
  return page({
    title: 'Dashboard',
    signedInAs: view.frame.email,
    csrfToken: view.frame.csrfToken,
    styles: ['uplot.css', 'dashboard.css'],
    scripts: ['uplot.js', 'dashboard.js'],
    data: { chart: view.overview.chart },
    body: html`<h1>Dashboard</h1>
${doneNotice(view.done, DONE)}
${view.error && !isApiErrorCode(view.error.code) ? errorNotice(view.error) : html``}
${usageCard(view.overview)}
${createCard(view)}
<section class="card"><h2>Clicks, last 30 days</h2>${chartBox('Clicks per day on all links', total)}</section>
${linksCard(view)}
${groupsCard(view)}`,
  });
}
