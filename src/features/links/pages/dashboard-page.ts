import type { Link } from '../../../core/entities.ts';
import { isApiErrorCode } from '../../../core/errors.ts';
import { SLUG_MAX_LENGTH, SLUG_MIN_LENGTH } from '../../../core/short-code.ts';
import type { LinkOrigins } from '../../../core/short-url.ts';
import { dailyBars, horizontalBars } from '../../../web/charts.ts';
import { type Frame, here, mayHere } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../../web/notices.ts';
import { groupsCard } from '../../groups/index.ts';
import { namesPreview, namesUtm, previewFieldset, utmFieldset } from './campaign-fields.ts';
import { type CampaignFault, type CampaignForm, EMPTY_CAMPAIGN_FORM } from './campaign-form.ts';
import type { LinkFilter, Overview, Usage } from './dashboard.ts';
import { copyableShortUrl } from './link-parts.ts';
import { groupOptions, linksCard } from './links-table.ts';
import { namesRules, ruleFields } from './rule-fields.ts';
import { EMPTY_RULE_FORM, type RuleForm } from './rule-form.ts';

/** GET /w/<slug>: usage, a create form, clicks by day and the most clicked, the links and the groups. */

/** The hosts new links may go on (the default domain's first), and the one they go on unless told. */
export interface DomainChoices {
  hosts: string[];
  chosen: string;
}

export interface DashboardView {
  frame: Frame;
  origins: LinkOrigins;
  domains: DomainChoices;
  overview: Overview;
  filter: LinkFilter;
  done?: string;
  /** The link just created (after the redirect), shown with its short URL. */
  created?: Link;
  /** A refused form: the create form shows the API's error code and message. */
  error?: PageError;
  draft?: {
    url: string;
    group: string;
    slug: string;
    domain?: string;
    rules?: RuleForm;
    campaign?: CampaignForm;
  };
  /** The fields a refusal is about, when it is about the campaign fields: shown next to them. */
  fault?: CampaignFault;
}

/** A choice of domain, only when the workspace has more than one to choose from. */
function domainSelect(choices: DomainChoices, drafted: string | undefined): SafeHtml {
  if (choices.hosts.length < 2) return html``;
  const selected = drafted || choices.chosen;
  const options = choices.hosts.map((host) =>
    host === selected
      ? html`<option value="${host}" selected>${host}</option>`
      : html`<option value="${host}">${host}</option>`,
  );
  return html`<label>Domain <select name="domain">${options}</select></label>`;
}

const DONE: Record<string, string> = {
  'link-deleted': 'The link was deleted. Its code will never be given out again.',
  'group-created': 'The group was created.',
  'group-renamed': 'The group was saved.',
  'group-deleted': 'The group was deleted; its links stay, ungrouped.',
};

/** The browser's check of a custom code (docs/api.md §8.1); the server checks it again, and whether it is free. */
const SLUG_INPUT_PATTERN = `[A-Za-z0-9_\\-]{${SLUG_MIN_LENGTH},${SLUG_MAX_LENGTH}}`;

const figure = (n: number) => n.toLocaleString('en-US');

/** Links against the quota, requests this hour against the rate limit. */
export function usageFigures(usage: Usage): SafeHtml {
  const minutes = Math.ceil(usage.resetSeconds / 60);
  const requests =
    usage.requestsThisHour === undefined
      ? html`<dd data-usage="requests" data-unavailable="true">unavailable <span class="hint">the request counters cannot be read right now</span></dd>`
      : html`<dd data-usage="requests">${figure(usage.requestsThisHour)} <span class="hint">of ${figure(usage.rateLimit)}, resets in ${minutes} min</span></dd>`;
  return html`<dl class="stats" aria-label="Usage">
<div><dt>Links</dt><dd data-usage="links">${figure(usage.links)} <span class="hint">of ${figure(usage.quota)}</span></dd></div>
<div><dt>Requests this hour <span class="visually-hidden">(the API key and this dashboard)</span></dt>${requests}</div>
</dl>`;
}

/** The UTM builder and the social preview of the create form, each behind its own disclosure. */
function campaignDetails(view: DashboardView, error: PageError | undefined): SafeHtml {
  const draft = view.draft;
  const campaign = draft?.campaign ?? EMPTY_CAMPAIGN_FORM;
  const fields = {
    id: 'create',
    form: campaign,
    base: EMPTY_CAMPAIGN_FORM.utm,
    url: draft?.url ?? '',
    card: { host: draft?.domain || view.domains.chosen, fallbackTitle: "The target page's title" },
    fault: view.fault,
    error,
  };
  const open = (yes: boolean) => (yes ? html` open` : html``);
  return html`<details class="more"${open(view.fault === 'utm' || namesUtm(campaign))}><summary>Campaign parameters (UTM) and query forwarding</summary>
  <div class="stack">${utmFieldset(fields)}</div></details>
  <details class="more"${open(view.fault === 'preview' || namesPreview(campaign))}><summary>Link preview in chats</summary>
  <div class="stack">${previewFieldset(fields)}</div></details>`;
}

function createCard(view: DashboardView): SafeHtml {
  const draft = view.draft ?? { url: '', group: '', slug: '' };
  const refused = view.error && isApiErrorCode(view.error.code) ? view.error : undefined;
  const error = refused && { code: refused.code, message: `Error ${refused.code}: ${refused.message}` };
  return html`<section class="card" id="create" aria-labelledby="create-heading">
<h2 id="create-heading">Shorten a URL</h2>
${view.fault ? html`` : errorNotice(error)}
${
  view.created
    ? html`<p class="notice ok" role="status" data-done="link-created">Created: ${copyableShortUrl(view.origins, view.created)}</p>`
    : html``
}
<form method="post" action="${here(view.frame, '/links')}" class="row" data-link-form>
  ${csrfField(view.frame.csrfToken)}
  <label class="grow">Long URL <input type="text" name="url" inputmode="url" required placeholder="https://example.com/a/long/page" value="${draft.url}"></label>
  <label class="slug">Custom code <span class="hint">optional</span>
    <input type="text" name="slug" minlength="${SLUG_MIN_LENGTH}" maxlength="${SLUG_MAX_LENGTH}" pattern="${SLUG_INPUT_PATTERN}"
      spellcheck="false" autocapitalize="none" autocomplete="off" aria-describedby="slug-hint" value="${draft.slug}"></label>
  ${domainSelect(view.domains, view.draft?.domain)}<label>Group <select name="group">${groupOptions(view.overview.groups, draft.group, 'No group')}</select></label>
  <button type="submit">Shorten</button>
  <details class="more"${namesRules(draft.rules) ? html` open` : html``}><summary>Expiry, visit limit, password and targeting</summary>
  <div class="stack">${ruleFields(draft.rules ?? EMPTY_RULE_FORM)}
  <button type="submit">Shorten with these rules</button></div>
  </details>
  ${campaignDetails(view, error)}
</form>
<p class="hint" id="slug-hint">A custom code is ${SLUG_MIN_LENGTH}–${SLUG_MAX_LENGTH} letters, digits, <code>_</code> or <code>-</code>, case-sensitive; no code is ever given out twice. Without one, a 7-character code is drawn.</p>
<p class="hint">The checks of <code>POST /create</code> run first: the target is fetched and must answer, and the request counts in the hour.</p>
<p><a class="button secondary small" href="${here(view.frame, '/bulk')}">Create many links at once</a> <span class="hint">from a pasted list or a CSV file</span></p>
</section>`;
}

function activity(overview: Overview, base: string): SafeHtml {
  const total = overview.chart.clicks.reduce((sum, n) => sum + n, 0);
  const chart =
    total === 0
      ? html`<div class="empty" data-state="no-clicks"><p>No clicks in the last 30 days.</p>
<p class="hint">Each time a browser follows one of your short links it is counted here, by day. Bots and link previews are counted apart.</p></div>`
      : dailyBars(
          { days: overview.chart.days, values: overview.chart.clicks },
          'Clicks per day, last 30 days',
          'click',
        );
  const top =
    overview.top.length === 0
      ? html`<p class="hint">Your most clicked links appear here.</p>`
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
<section class="card" aria-labelledby="activity-heading"><h2 id="activity-heading">Clicks, last 30 days</h2>${chart}
<p><a class="button secondary small" href="${base}/stats">Visit stats of all links</a></p></section>
<section class="card" aria-labelledby="top-heading"><h2 id="top-heading">Most clicked</h2>${top}</section>
</div>`;
}

export function dashboardPage(view: DashboardView): string {
  const base = here(view.frame);
  const canEdit = mayHere(view.frame, 'links:write');
  const csrfToken = view.frame.csrfToken;
  return page({
    title: 'Dashboard',
    current: base,
    frame: view.frame,
    styles: ['dashboard.css', 'link-tools.css'],
    scripts: ['dashboard.js', 'link-fields.js'],
    body: html`<div class="page-head"><h1>Dashboard</h1>${usageFigures(view.overview.usage)}</div>
${doneNotice(view.done, DONE)}
${view.error && !isApiErrorCode(view.error.code) ? errorNotice(view.error) : html``}
${mayHere(view.frame, 'links:create') ? createCard(view) : ''}
${activity(view.overview, base)}
${linksCard({ origins: view.origins, base, canEdit, csrfToken, overview: view.overview, filter: view.filter })}
${groupsCard(base, view.overview.groups, mayHere(view.frame, 'groups:write') ? csrfToken : undefined)}`,
  });
}
