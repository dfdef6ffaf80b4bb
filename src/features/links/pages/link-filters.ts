import { displayHost } from '../../../core/domain-host.ts';
import type { Group } from '../../../core/entities.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import type { LinkFilter } from './dashboard.ts';
import { groupOptions } from './group-options.ts';
import { type DroppedFilter, dashboardHref } from './links-href.ts';

/**
 * The list's filters: a search, a tag (several are all held: each one chosen becomes a chip), a
 * group, a domain (only when the workspace has more than its default one) and a state. A plain GET
 * form without script; with it (link-list.js) the list follows as one types or chooses. The
 * filters in force show under the form as chips, each taking its filter off, then Clear.
 */

export interface FilterView {
  base: string;
  filter: LinkFilter;
  groups: readonly Group[];
  /** Every tag of the workspace's links, sorted. */
  tags: readonly string[];
  /** The hosts the workspace's links may be on; no choice when only one. */
  hosts: readonly string[];
}

/** The states a list may show, as people read them; without one, every link but the archived. */
const STATES: ReadonlyArray<[NonNullable<LinkFilter['state']>, string]> = [
  ['active', 'Active'],
  ['archived', 'Archived'],
  ['expired', 'Expired'],
  ['disabled', 'Disabled'],
  ['broken', 'Broken'],
  ['all', 'All, archived too'],
];
const STATE_NAMES: Readonly<Record<string, string>> = Object.fromEntries(STATES);
const DEFAULT_STATE = 'Not archived';

/** Whether the list shows less than every link but the archived. */
export function isFiltered(filter: LinkFilter): boolean {
  return (
    filter.search !== '' ||
    filter.groupId !== undefined ||
    filter.tag !== undefined ||
    filter.domain !== undefined ||
    filter.state !== undefined
  );
}

const option = (value: string, label: string, selected: boolean) =>
  selected
    ? html`<option value="${value}" selected>${label}</option>`
    : html`<option value="${value}">${label}</option>`;

function tagField(view: FilterView, chosen: readonly string[]): SafeHtml {
  const left = view.tags.filter((tag) => !chosen.includes(tag));
  if (left.length === 0) return html``;
  const none = chosen.length === 0 ? 'Any tag' : 'Add a tag';
  return html`<label>Tag <select name="tag" data-auto>${option('', none, true)}${left.map((tag) => option(tag, tag, false))}</select></label>`;
}

function domainField(view: FilterView): SafeHtml {
  if (view.hosts.length < 2) return html``;
  const current = view.filter.domain?.host ?? '';
  return html`<label>Domain <select name="domain" data-auto>${option('', 'All domains', current === '')}${view.hosts.map((host) => option(host, displayHost(host), host === current))}</select></label>`;
}

function stateField(filter: LinkFilter): SafeHtml {
  const current = filter.state ?? '';
  return html`<label>Show <select name="state" data-auto>${option('', DEFAULT_STATE, current === '')}${STATES.map(([value, label]) => option(value, label, value === current))}</select></label>`;
}

export function filterForm(view: FilterView): SafeHtml {
  const { filter, base } = view;
  const chosen = filter.tag ? (filter.tags ?? [filter.tag]) : [];
  const group = filter.groupId === undefined ? '' : String(filter.groupId);
  return html`<form method="get" action="${base}" class="row filter" id="links-filter" role="search" aria-label="Filter links" data-refresh data-live-list>
  <label class="grow">Search code, URL, title or tag <input type="search" name="q" id="links-q" value="${filter.search}" autocomplete="off" aria-keyshortcuts="/"></label>
  ${tagField(view, chosen)}
  <label>Group <select name="group" data-auto>${groupOptions(view.groups, group, 'All groups')}</select></label>
  ${domainField(view)}${stateField(filter)}
  ${chosen.map((tag) => html`<input type="hidden" name="tag" value="${tag}">`)}
  ${filter.domain && view.hosts.length < 2 ? html`<input type="hidden" name="domain" value="${filter.domain.host}">` : html``}
  ${filter.order === 'created' ? html`` : html`<input type="hidden" name="sort" value="${filter.order}">`}
  ${filter.ascending ? html`<input type="hidden" name="order" value="asc">` : html``}
  <button type="submit" class="secondary">Filter</button>
</form>`;
}

function chip(view: FilterView, drop: DroppedFilter, what: string, value: string): SafeHtml {
  return html`<li><a class="pill filter-chip" href="${dashboardHref(view.base, view.filter, { drop })}" data-drop="${typeof drop === 'object' ? 'tag' : drop}"><span class="visually-hidden">Remove the filter </span>${what}: ${value} <span aria-hidden="true">×</span></a></li>`;
}

/** The filters in force, each a chip that takes it off, and Clear; an empty box when there are none. */
export function filterChips(view: FilterView): SafeHtml {
  const { filter } = view;
  const chips: SafeHtml[] = [];
  if (filter.search) chips.push(chip(view, 'search', 'Search', filter.search));
  for (const tag of filter.tag ? (filter.tags ?? [filter.tag]) : [])
    chips.push(chip(view, { tag }, 'Tag', tag));
  const group = view.groups.find((candidate) => candidate.id === filter.groupId);
  if (filter.groupId !== undefined) chips.push(chip(view, 'group', 'Group', group?.name ?? 'unknown'));
  if (filter.domain) chips.push(chip(view, 'domain', 'Domain', displayHost(filter.domain.host)));
  if (filter.state) chips.push(chip(view, 'state', 'Show', STATE_NAMES[filter.state] ?? filter.state));
  const cleared = { ...filter, search: '', groupId: undefined, tag: undefined, tags: undefined };
  const clear = dashboardHref(view.base, { ...cleared, domain: undefined, state: undefined });
  return html`<div class="filter-chips" id="links-chips" data-refresh>${
    chips.length === 0
      ? html``
      : html`<ul class="chips" aria-label="Filters in force">${chips}</ul><a href="${clear}" class="button ghost small" data-clear>Clear</a>`
  }</div>`;
}
