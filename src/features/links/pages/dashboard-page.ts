import type { Link } from '../../../core/entities.ts';
import { isApiErrorCode } from '../../../core/errors.ts';
import type { LinkOrigins } from '../../../core/short-url.ts';
import { dailyBars, horizontalBars } from '../../../web/charts.ts';
import { type Frame, here, mayHere, zoneHere } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { doneNotice, errorNotice, type PageError } from '../../../web/notices.ts';
import { groupsCard } from '../../groups/index.ts';
import type { CampaignFault } from './campaign-form.ts';
import { type CreateDraft, createCard, type DomainChoices } from './create-card.ts';
import type { LinkFilter, Overview, Usage } from './dashboard.ts';
import { linksCard } from './links-table.ts';

/** GET /w/<slug>: usage, a create form, clicks by day and the most clicked, the links and the groups. */

export type { DomainChoices } from './create-card.ts';

export interface DashboardView {
  frame: Frame;
  origins: LinkOrigins;
  domains: DomainChoices;
  overview: Overview;
  filter: LinkFilter;
  done?: string;
  /** The link just created (after the redirect), shown with its short URL. */
  created?: Link;
  /** A refused form: the create form shows why, next to the field it is about. */
  error?: PageError;
  draft?: CreateDraft;
  /** The fields a refusal is about, when it is about the campaign fields: shown next to them. */
  fault?: CampaignFault;
  /** The link the create form is filled in from (`?duplicate=`). */
  copyOf?: Link;
}

const DONE: Record<string, string> = {
  'link-deleted': 'The link was deleted. Its code will never be given out again.',
  'link-archived': 'The link was archived: it is hidden from this list, and still redirects and counts.',
  'link-unarchived': 'The link is back in the list.',
  'group-created': 'The group was created.',
  'group-renamed': 'The group was saved.',
  'group-deleted': 'The group was deleted; its links stay, ungrouped.',
};

const figure = (n: number) => n.toLocaleString('en-US');

/** Links against the quota, requests this hour against the rate limit (the API's too, where the plan has it). */
export function usageFigures(usage: Usage, apiAccess = true): SafeHtml {
  const minutes = Math.ceil(usage.resetSeconds / 60);
  const requests =
    usage.requestsThisHour === undefined
      ? html`<dd data-usage="requests" data-unavailable="true">unavailable <span class="hint">the request counters cannot be read right now</span></dd>`
      : html`<dd data-usage="requests">${figure(usage.requestsThisHour)} <span class="hint">of ${figure(usage.rateLimit)}, resets in ${minutes} min</span></dd>`;
  return html`<dl class="stats" id="usage" data-refresh aria-label="Usage">
<div><dt>Links</dt><dd data-usage="links">${figure(usage.links)} <span class="hint">of ${figure(usage.quota)}</span></dd></div>
<div><dt>Requests this hour${apiAccess ? html` <span class="visually-hidden">(the API key and this dashboard)</span>` : html``}</dt>${requests}</div>
</dl>`;
}

function activity(overview: Overview, base: string): SafeHtml {
  const total = overview.chart.clicks.reduce((sum, n) => sum + n, 0);
  const chart =
    total === 0
      ? html`<div class="empty" data-state="no-clicks"><p>No clicks in the last 30 days.</p>
<p class="hint">Share a short link: each visit shows here, day by day.</p></div>`
      : dailyBars(
          { days: overview.chart.days, values: overview.chart.clicks },
          'Clicks per day, last 30 days',
          'click',
        );
  const top =
    overview.top.length === 0
      ? html`<p class="hint" data-state="no-top">Your most clicked links will show here.</p>`
      : horizontalBars(
          overview.top.map((link) => ({
            label: link.title || link.code,
            value: link.clicks,
            href: `${base}/links/${link.code}`,
          })),
          'Most clicked links, all time',
          'click',
        );
  return html`<div class="columns">
<section class="card" aria-labelledby="activity-heading"><div class="head-row"><h2 id="activity-heading">Clicks, last 30 days</h2>
<a class="button ghost small" href="${base}/stats">All stats</a></div>${chart}</section>
<section class="card" aria-labelledby="top-heading"><h2 id="top-heading">Most clicked</h2>${top}</section>
</div>`;
}

export function dashboardPage(view: DashboardView): string {
  const base = here(view.frame);
  const { frame, overview } = view;
  const canEdit = mayHere(frame, 'links:write');
  const canCreate = mayHere(frame, 'links:create');
  const first = overview.usage.links === 0;
  const create = canCreate
    ? createCard({
        frame,
        origins: view.origins,
        domains: view.domains,
        groups: overview.groups,
        created: view.created,
        error: view.error,
        draft: view.draft,
        fault: view.fault,
        copyOf: view.copyOf,
        first,
      })
    : html``;
  const links = linksCard({
    origins: view.origins,
    base,
    canEdit,
    canCreate,
    csrfToken: frame.csrfToken,
    overview,
    filter: view.filter,
    keysHref: mayHere(frame, 'keys:write') ? here(frame, '/keys') : undefined,
    zone: zoneHere(frame),
    hosts: view.domains.hosts,
  });
  return page({
    title: 'Links',
    current: base,
    frame,
    styles: ['dashboard.css', 'stats.css', 'link-tools.css'],
    scripts: ['dashboard.js', 'link-list.js', 'link-fields.js', 'link-variants.js'],
    body: html`<div class="page-head"><h1>Links</h1>${usageFigures(overview.usage, overview.apiAccess)}</div>
${doneNotice(view.done, DONE)}
${view.error && !isApiErrorCode(view.error.code) ? errorNotice(view.error) : html``}
${create}
${first ? html`${links}${activity(overview, base)}` : html`${activity(overview, base)}${links}`}
${groupsCard(base, overview.groups, mayHere(frame, 'groups:write') ? frame.csrfToken : undefined)}`,
  });
}
