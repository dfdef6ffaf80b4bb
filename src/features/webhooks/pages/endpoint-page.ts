import type { Workspace } from '../../../core/entities.ts';
import type { DeliveryRecord, WebhookEndpoint } from '../../../core/ports/webhook-store.ts';
import { type Frame, here } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../../web/notices.ts';
import { when } from '../../../web/page-parts.ts';
import { DELIVERY_DAYS } from '../endpoints.ts';
import {
  type EndpointDraft,
  endpointFields,
  endpointHref,
  failingNotice,
  stateFact,
  toggleForm,
} from './webhooks-page.ts';

/**
 * GET /w/<slug>/webhooks/<id> (docs/api.md §14): one endpoint, its secret once after it was made or
 * rotated, its deliveries of the last seven days newest first (status, attempts, answer, duration),
 * each sent again on request, a test event, and the forms that change, rotate and remove it.
 */

export interface EndpointPageView {
  frame: Frame;
  workspace: Workspace;
  endpoint: WebhookEndpoint;
  /** One page of deliveries, newest first. */
  deliveries: readonly DeliveryRecord[];
  /** The id the next (older) page starts below, when there is one. */
  older?: number;
  /** This page is not the newest. */
  paged: boolean;
  /** The signing secret, shown this once. */
  secret?: string;
  done?: string;
  error?: PageError;
  /** A refused edit: the form keeps what was sent. */
  draft?: EndpointDraft;
}

const DONE: Record<string, string> = {
  added: 'The endpoint was added.',
  rotated: 'The secret was rotated: requests are signed with the new one from now on.',
  saved: 'The endpoint’s settings were saved.',
  enabled: 'The endpoint is enabled: it hears events again.',
  disabled: 'The endpoint is disabled: its pending deliveries were cancelled.',
  'test-sent': 'A test event is on its way. Reload to see how its delivery went.',
  resent: 'The delivery is on its way again, with the same webhook-id.',
};

function secretBox(secret: string): SafeHtml {
  return html`<div class="fresh-key" data-state="secret-shown">
<p><strong>The endpoint’s signing secret.</strong> Copy it now: it is shown only this once. Receivers verify each request’s signature with it.</p>
<p class="copyable"><code id="webhook-secret">${secret}</code>
<button type="button" data-copy-from="webhook-secret">Copy the secret</button></p>
</div>`;
}

function facts(endpoint: WebhookEndpoint): SafeHtml {
  return html`<dl class="facts">
  <dt>URL</dt><dd data-fact="url">${endpoint.url}</dd>
  <dt>Events</dt><dd data-fact="events">${endpoint.events.map((type) => html`<code>${type}</code> `)}</dd>
  <dt>Description</dt><dd data-fact="description">${endpoint.description === '' ? html`<span class="hint">none</span>` : endpoint.description}</dd>
  <dt>State</dt><dd data-fact="state">${stateFact(endpoint)}</dd>
  <dt>Added</dt><dd><time datetime="${endpoint.createdAt.toISOString()}">${when(endpoint.createdAt)}</time></dd>
</dl>`;
}

/** Test, rotate, turn off or on, remove: each its own small form. */
function actions(frame: Frame, endpoint: WebhookEndpoint): SafeHtml {
  const form = (rest: string, confirm: string, button: SafeHtml) =>
    html`<form method="post" action="${endpointHref(frame, endpoint.id, rest)}" class="inline"${confirm === '' ? html`` : html` data-confirm="${confirm}"`}>${csrfField(frame.csrfToken)}${button}</form>`;
  return html`<p class="row-actions" data-part="actions">
${form('/test', '', html`<button type="submit" class="small" data-action="test">Send test event</button>`)}
${form('/rotate', 'Rotate the secret? Requests are signed with the new one at once.', html`<button type="submit" class="secondary small" data-action="rotate">Rotate the secret</button>`)}
${endpoint.enabled ? toggleForm(frame, endpoint, false) : toggleForm(frame, endpoint, true)}
${form('/delete', `Remove ${endpoint.url}? Its deliveries go with it.`, html`<button type="submit" class="danger small" data-action="delete">Remove</button>`)}
</p>`;
}

function editCard(view: EndpointPageView): SafeHtml {
  const { endpoint } = view;
  const draft = view.draft ?? endpoint;
  return html`<section class="card" id="edit-endpoint" aria-labelledby="edit-heading">
<h2 id="edit-heading">Settings</h2>
<form method="post" action="${endpointHref(view.frame, endpoint.id, '/update')}" class="stack new-key">
  ${csrfField(view.frame.csrfToken)}
  <input type="hidden" name="edit" value="yes">
  ${endpointFields(draft)}
  <button type="submit" class="secondary">Save</button>
</form>
</section>`;
}

const dash = html`<span class="hint">—</span>`;

function deliveryRow(frame: Frame, endpoint: WebhookEndpoint, one: DeliveryRecord): SafeHtml {
  const resend = endpointHref(frame, endpoint.id, `/deliveries/${one.id}/resend`);
  return html`<tr data-delivery="${one.id}" data-webhook-id="${one.messageId}">
<td data-label="Time" class="nowrap"><time datetime="${one.createdAt.toISOString()}">${when(one.createdAt)}</time></td>
<td data-label="Event"><code>${one.type}</code><br><code class="hint" data-fact="webhook-id">${one.messageId}</code></td>
<td data-label="Status"><span data-state="${one.state}">${one.state}</span></td>
<td data-label="Attempts" class="num" data-fact="attempts">${one.attempts}</td>
<td data-label="Response" class="num" data-fact="response">${one.statusCode ?? dash}</td>
<td data-label="Duration" class="num nowrap">${one.durationMs === null ? dash : `${one.durationMs} ms`}</td>
<td data-label="Error">${one.error === null ? dash : html`<span class="truncate" title="${one.error}">${one.error}</span>`}</td>
<td><form method="post" action="${resend}" class="inline">${csrfField(frame.csrfToken)}<button type="submit" class="secondary small" data-action="resend">Resend<span class="visually-hidden"> ${one.type} ${one.messageId}</span></button></form></td>
</tr>`;
}

function deliveriesCard(view: EndpointPageView): SafeHtml {
  const { frame, endpoint } = view;
  const pager = html`${view.paged ? html`<a href="${endpointHref(frame, endpoint.id)}" data-page="newest">Newest</a> ` : html``}${view.older === undefined ? html`` : html`<a href="${endpointHref(frame, endpoint.id, `?before=${view.older}`)}" data-page="older">Older deliveries</a>`}`;
  const table =
    view.deliveries.length === 0
      ? html`<p class="empty" data-state="no-deliveries">No deliveries in the last ${DELIVERY_DAYS} days. Send a test event to see one.</p>`
      : html`<div class="table-wrap"><table class="stacked deliveries">
<caption class="visually-hidden">Deliveries of the last ${DELIVERY_DAYS} days, newest first</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Event and webhook-id</th><th scope="col">Status</th><th scope="col" class="num">Attempts</th><th scope="col" class="num">Response</th><th scope="col" class="num">Duration</th><th scope="col">Error</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${view.deliveries.map((one) => deliveryRow(frame, endpoint, one))}</tbody></table></div>`;
  return html`<section class="card" id="deliveries" aria-labelledby="deliveries-heading">
<h2 id="deliveries-heading">Deliveries <span class="hint">of the last ${DELIVERY_DAYS} days</span></h2>
${table}
${view.paged || view.older !== undefined ? html`<p class="pager">${pager}</p>` : html``}
</section>`;
}

export function endpointPage(view: EndpointPageView): string {
  const { frame, endpoint } = view;
  return page({
    title: 'Webhook endpoint',
    current: here(frame, '/webhooks'),
    frame,
    styles: ['dashboard.css'],
    scripts: ['dashboard.js'],
    body: html`<p><a href="${here(frame, '/webhooks')}">← All webhooks</a></p>
<h1 class="truncate" title="${endpoint.url}">${endpoint.url}</h1>
${doneNotice(view.done, DONE)}
${errorNotice(view.error)}
${view.secret === undefined ? html`` : secretBox(view.secret)}
${failingNotice(frame, endpoint)}
<section class="card" data-endpoint="${endpoint.id}" aria-labelledby="about-heading">
<h2 id="about-heading">Endpoint</h2>
${facts(endpoint)}
${actions(frame, endpoint)}
</section>
${deliveriesCard(view)}
${editCard(view)}`,
  });
}
