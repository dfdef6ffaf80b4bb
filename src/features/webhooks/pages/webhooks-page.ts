import type { Workspace } from '../../../core/entities.ts';
import type { WebhookEndpoint } from '../../../core/ports/webhook-store.ts';
import { EVENT_TYPES } from '../../../core/webhook-events.ts';
import { type Frame, here } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../../web/notices.ts';
import { when } from '../../../web/page-parts.ts';
import { MAX_ENDPOINTS } from '../endpoints.ts';

/**
 * GET /w/<slug>/webhooks (docs/api.md §14): the workspace's endpoints, what each hears and whether
 * it is on, a notice for each one Snip disabled after its deliveries failed, and the form that adds
 * one. Admins and owners only; the parts shared with one endpoint's page live here too.
 */

/** What an add or edit form sent, kept when it was refused. */
export interface EndpointDraft {
  url: string;
  events: readonly string[];
  description: string;
}

export interface WebhooksPageView {
  frame: Frame;
  workspace: Workspace;
  endpoints: readonly WebhookEndpoint[];
  done?: string;
  error?: PageError;
  draft?: EndpointDraft;
}

const DONE: Record<string, string> = {
  removed: 'The endpoint was removed, with its deliveries.',
};

const EVENT_HINTS: Readonly<Record<(typeof EVENT_TYPES)[number], string>> = {
  'link.created': 'a link was made',
  'link.updated': 'a link was changed',
  'link.deleted': 'a link was deleted',
  'link.disabled': 'a link was disabled by the operator',
  'link.broken': 'a link’s target failed two checks in a row',
  'link.recovered': 'a broken link’s target answers again',
  'link.clicked': 'a person clicked a link (never bots, HEAD or prefetch)',
  'lead.created': 'a click of a tracked link led to a lead (sign-up)',
  'sale.created': 'a sale was attributed to a link',
};

/** The address of one endpoint's page. */
export const endpointHref = (frame: Frame, id: number, rest = ''): string =>
  here(frame, `/webhooks/${id}${rest}`);

/** Snip turned it off after its deliveries failed for a day (or a thousand times in a row). */
export const failing = (endpoint: WebhookEndpoint): boolean => endpoint.disabled?.reason === 'failing';

/** On or off, and who turned it off. */
export function stateFact(endpoint: WebhookEndpoint): SafeHtml {
  if (endpoint.enabled) return html`<span data-state="enabled">Enabled</span>`;
  return failing(endpoint)
    ? html`<span data-state="failing">Disabled by Snip: its deliveries failed</span>`
    : html`<span data-state="disabled">Disabled</span>`;
}

/** A form that turns the endpoint on (`true`) or off (`false`) and changes nothing else. */
export function toggleForm(frame: Frame, endpoint: WebhookEndpoint, enabled: boolean): SafeHtml {
  const label = enabled ? 'Enable' : 'Disable';
  return html`<form method="post" action="${endpointHref(frame, endpoint.id, '/update')}" class="inline">${csrfField(frame.csrfToken)}
<input type="hidden" name="enabled" value="${String(enabled)}"><button type="submit" class="${enabled ? '' : 'secondary '}small" data-action="${enabled ? 'enable' : 'disable'}">${label}<span class="visually-hidden"> ${endpoint.url}</span></button></form>`;
}

/** The notice the spec asks for when Snip disabled an endpoint, with the button that enables it again. */
export function failingNotice(frame: Frame, endpoint: WebhookEndpoint): SafeHtml {
  if (!failing(endpoint)) return html``;
  const since = endpoint.failingSince ?? endpoint.disabled?.at;
  return html`<div class="notice error" data-notice="failing">
<p>Snip disabled this endpoint after its deliveries failed${since ? html` since <time datetime="${since.toISOString()}">${when(since)}</time>` : html``}; enable it again once it answers.</p>
${toggleForm(frame, endpoint, true)}
</div>`;
}

/** One checkbox per event type, the chosen ones ticked. */
export function eventBoxes(chosen: readonly string[]): SafeHtml {
  return html`<fieldset class="scopes"><legend>Events <span class="hint">what it hears; at least one</span></legend>
${EVENT_TYPES.map(
  (
    type,
  ) => html`<label class="check"><input type="checkbox" name="events" value="${type}"${chosen.includes(type) ? html` checked` : html``}>
<span><code>${type}</code> <span class="hint">— ${EVENT_HINTS[type]}</span></span></label>`,
)}
</fieldset>`;
}

/** The URL, events and description fields of the add and edit forms. */
export function endpointFields(draft: EndpointDraft): SafeHtml {
  return html`<label>URL <span class="hint">an http(s) address that answers 2xx within 10 s</span>
  <input type="url" name="url" required maxlength="2048" placeholder="https://hooks.example.com/snip" autocomplete="off" spellcheck="false" value="${draft.url}"></label>
${eventBoxes(draft.events)}
  <label>Description <span class="hint">optional; up to 500 characters</span>
  <input type="text" name="description" maxlength="500" autocomplete="off" value="${draft.description}"></label>`;
}

function endpointCard(frame: Frame, endpoint: WebhookEndpoint): SafeHtml {
  return html`<section class="card" data-endpoint="${endpoint.id}" aria-labelledby="endpoint-${endpoint.id}">
<h2 id="endpoint-${endpoint.id}" class="truncate" title="${endpoint.url}">${endpoint.url}</h2>
${failingNotice(frame, endpoint)}
<dl class="facts">
  <dt>Events</dt><dd data-fact="events">${endpoint.events.map((type) => html`<code>${type}</code> `)}</dd>
  <dt>Description</dt><dd data-fact="description">${endpoint.description === '' ? html`<span class="hint">none</span>` : endpoint.description}</dd>
  <dt>State</dt><dd data-fact="state">${stateFact(endpoint)}</dd>
  <dt>Added</dt><dd><time datetime="${endpoint.createdAt.toISOString()}">${when(endpoint.createdAt)}</time></dd>
</dl>
<p><a class="button secondary small" href="${endpointHref(frame, endpoint.id)}" data-action="open">Deliveries and settings<span class="visually-hidden"> of ${endpoint.url}</span></a></p>
</section>`;
}

function addCard(view: WebhooksPageView): SafeHtml {
  if (view.endpoints.length >= MAX_ENDPOINTS)
    return html`<p class="hint" data-state="endpoints-full">This workspace holds ${MAX_ENDPOINTS} endpoints, the most it may; remove one to add another.</p>`;
  const draft = view.draft ?? { url: '', events: [], description: '' };
  return html`<section class="card" id="add-endpoint" aria-labelledby="add-heading">
<h2 id="add-heading">Add an endpoint</h2>
<form method="post" action="${here(view.frame, '/webhooks')}" class="stack new-key">
  ${csrfField(view.frame.csrfToken)}
  ${endpointFields(draft)}
  <button type="submit">Add the endpoint</button>
</form>
<p class="hint">Its signing secret is shown once, right after adding. Each request is signed per Standard Webhooks (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>).</p>
</section>`;
}

export function webhooksPage(view: WebhooksPageView): string {
  const { frame } = view;
  const anyFailing = view.endpoints.some(failing);
  return page({
    title: 'Webhooks',
    current: here(frame, '/webhooks'),
    frame,
    styles: ['dashboard.css'],
    scripts: ['dashboard.js'],
    body: html`<h1>Webhooks of ${view.workspace.name}</h1>
<p class="hint">Snip sends each event of this workspace’s links to the endpoints that hear it, signed, and tries a failed delivery again for a day.</p>
${anyFailing ? html`<p class="notice error" role="alert" data-notice="some-failing">Snip disabled an endpoint of this workspace after its deliveries failed: see below, and enable it again once it answers.</p>` : html``}
${doneNotice(view.done, DONE)}
${errorNotice(view.error)}
${view.endpoints.length === 0 ? html`<p class="empty" data-state="no-endpoints">No endpoints yet.</p>` : html``}
${view.endpoints.map((endpoint) => endpointCard(frame, endpoint))}
${addCard(view)}`,
  });
}
