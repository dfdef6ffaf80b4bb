import { scopesOfRole } from '../../../core/authorization.ts';
import type { ApiKeyInfo, Workspace } from '../../../core/entities.ts';
import { MAX_KEYS_PER_ACCOUNT, type Scope } from '../../../core/scopes.ts';
import { type Frame, here } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../../web/notices.ts';
import { day, when } from '../../../web/page-parts.ts';
import { MAX_KEY_NAME } from '../api-access.ts';

/**
 * The Keys page of a workspace (docs/api.md §7.1, §11): the main key (its prefix, rotation),
 * every live key with its scopes and uses, further keys added and revoked, each key shown once.
 */

export interface FreshKey {
  /** The full key, shown this once only. */
  key: string;
  /** The live key it is. */
  info: ApiKeyInfo;
}

export interface ApiAccessView {
  frame: Frame;
  workspace: Workspace;
  /** Every live key, the main key first; none without API access. */
  keys: readonly ApiKeyInfo[];
  fresh?: FreshKey;
  done?: string;
  error?: PageError;
  /** A refused new key: the form keeps what was sent. */
  keyDraft?: { name: string; scopes: readonly string[] };
}

const DONE: Record<string, string> = {
  'key-created': 'The key was created.',
  'key-revoked': 'The key was revoked: requests that send it are refused from now on.',
};

/** What each scope lets a key do, in the words of the API reference. */
const SCOPE_HINTS: Readonly<Record<Scope, string>> = {
  'links:create': 'create links: POST /create and POST /api/v1/links',
  'links:read': 'list, read and export links; list groups',
  'links:write': 'change, delete and import links',
  'stats:read': 'read click statistics (they come with analytics)',
  'groups:write': 'create, rename and delete groups',
  'members:read': 'list members and pending invitations',
  'members:write': 'invite, change and remove members',
  'domains:write': 'add and remove the workspace’s domains',
  'webhooks:write': 'add and remove webhooks',
  'audit:read': 'read the workspace’s audit log',
  'conversions:write': 'report leads and sales: POST /api/v1/track/lead and /track/sale',
};

function freshKeyBox(fresh: FreshKey): SafeHtml {
  const which = fresh.info.main
    ? html`<strong>Your new main key.</strong>`
    : html`<strong>Your new key “${fresh.info.name}”.</strong>`;
  return html`<div class="fresh-key" data-state="key-shown" data-key-id="${fresh.info.id}">
<p>${which} Copy it now: it is shown only this once, and Snip keeps only its hash.</p>
<p class="copyable"><code id="api-key">${fresh.key}</code>
<button type="button" data-copy-from="api-key">Copy the key</button></p>
</div>`;
}

function mainKey(view: ApiAccessView, main: ApiKeyInfo | undefined): SafeHtml {
  const state = main
    ? view.fresh?.info.id === main.id
      ? html``
      : html`<p data-state="key-prefix">Your main key starts with <code id="api-key-prefix">${main.prefix}</code>… and has every scope.
<span class="hint">(created ${when(main.createdAt)}; the full key was shown once, when it was made)</span></p>`
    : html`<p data-state="no-key">This workspace has no main key.</p>`;
  return html`<h3>Main key</h3>
${state}
<form method="post" action="${here(view.frame, '/keys/main')}" class="stack rotate">
  ${csrfField(view.frame.csrfToken)}
  <label class="check"><input type="checkbox" name="understand" value="yes" required>
    I understand the ${main ? 'old key stops working at once' : 'new key is shown only once'}.</label>
  <button type="submit" class="${main ? 'danger' : ''}">${main ? 'Rotate the main key' : 'Create a main key'}</button>
</form>`;
}

function moment(date: Date | null): SafeHtml {
  if (date === null) return html`<span class="hint">never</span>`;
  return html`<time datetime="${date.toISOString()}" title="${when(date)}">${day(date)}</time>`;
}

function revokeMenu(base: string, key: ApiKeyInfo, csrfToken: string): SafeHtml {
  return html`<details class="menu"><summary aria-label="Actions for the key ${key.name}">⋯</summary>
<div class="menu-items"><form method="post" action="${base}/keys/${key.id}/revoke" data-confirm="Revoke the key “${key.name}”? Requests that send it are refused at once.">
${csrfField(csrfToken)}<button type="submit" class="danger small">Revoke this key</button></form></div></details>`;
}

function keyRow(base: string, key: ApiKeyInfo, csrfToken: string): SafeHtml {
  const name = key.main ? 'Main key' : key.name;
  const scopes = key.main
    ? html`every scope`
    : html`<span class="scope-list">${key.scopes.map((scope) => html`<code>${scope}</code> `)}</span>`;
  return html`<tr data-key-id="${key.id}"${key.main ? html` data-main="true"` : html``}>
<td data-label="Name"><span class="truncate" title="${name}">${name}</span></td>
<td data-label="Key"><code>${key.prefix}…</code></td>
<td data-label="Scopes">${scopes}</td>
<td data-label="Created" class="nowrap">${moment(key.createdAt)}</td>
<td data-label="Last used" class="nowrap">${moment(key.lastUsedAt)}</td>
<td class="actions">${key.main ? html`` : revokeMenu(base, key, csrfToken)}</td>
</tr>`;
}

function keysTable(view: ApiAccessView): SafeHtml {
  if (view.keys.length === 0) return html``;
  return html`<div class="table-wrap"><table class="keys">
<caption class="visually-hidden">Live keys of this workspace</caption>
<colgroup><col class="col-name"><col class="col-key"><col class="col-scopes"><col class="col-created"><col class="col-used"><col class="col-actions"></colgroup>
<thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${view.keys.map((key) => keyRow(here(view.frame), key, view.frame.csrfToken))}</tbody></table></div>`;
}

function newKeyForm(view: ApiAccessView): SafeHtml {
  if (view.keys.length >= MAX_KEYS_PER_ACCOUNT) {
    return html`<p class="hint" data-state="keys-full">This workspace holds ${MAX_KEYS_PER_ACCOUNT} keys, the most it may; revoke one to add another.</p>`;
  }
  const draft = view.keyDraft ?? { name: '', scopes: [] };
  const checked = (scope: Scope) => (draft.scopes.includes(scope) ? html` checked` : html``);
  return html`<form method="post" action="${here(view.frame, '/keys')}" class="stack new-key">
  ${csrfField(view.frame.csrfToken)}
  <label>Name <span class="hint">what will use it, e.g. “deploy script”; up to ${MAX_KEY_NAME} characters</span>
    <input type="text" name="name" required maxlength="${MAX_KEY_NAME}" autocomplete="off" value="${draft.name}"></label>
  <fieldset class="scopes"><legend>Scopes <span class="hint">what it may do; at least one</span></legend>
  ${allowedScopes(view).map(
    (
      scope,
    ) => html`<label class="check"><input type="checkbox" name="scopes" value="${scope}"${checked(scope)}>
    <span><code>${scope}</code> <span class="hint">— ${SCOPE_HINTS[scope]}</span></span></label>`,
  )}
  </fieldset>
  <button type="submit">Create the key</button>
</form>`;
}

/** The scopes the signed-in maker's role allows: a key never gets more (core/authorization.ts). */
function allowedScopes(view: ApiAccessView): Scope[] {
  const role = view.frame.workspace?.role;
  return role ? scopesOfRole(role) : [];
}

export function apiAccessCard(view: ApiAccessView): SafeHtml {
  const { plan } = view.workspace;
  if (!plan.apiAccess) {
    return html`<section class="card" id="api-access">
<h2>API Access</h2>
${errorNotice(view.error)}
<p class="notice" data-state="no-api-access">This workspace’s plan, <strong>${plan.name}</strong>, does not include API access, so no API key is shown.
You can still shorten links on the <a href="${here(view.frame)}">dashboard</a>. Ask the operator of this Snip for a plan with API access.</p>
</section>`;
  }
  const main = view.keys.find((key) => key.main);
  const further = view.keys.length - (main ? 1 : 0);
  return html`<section class="card" id="api-access">
<h2>API Access</h2>
<p>This workspace’s plan, <strong>${plan.name}</strong>, includes API access. Send a key in the <code>X-API-Key</code> header of <code>POST /create</code>,
or to the management API under <code>/api/v1</code> as <code>X-API-Key</code> or <code>Authorization: Bearer</code>: see the
<a href="/docs">API reference</a>. Every key of this workspace spends one window of ${plan.rateLimitPerHour.toLocaleString('en-US')} requests an hour.</p>
${doneNotice(view.done, DONE)}
${errorNotice(view.error)}
${view.fresh ? freshKeyBox(view.fresh) : html``}
${mainKey(view, main)}
<h3>Keys <span class="hint">${view.keys.length} of at most ${MAX_KEYS_PER_ACCOUNT}</span></h3>
${keysTable(view)}
${further === 0 ? html`<p class="hint">Add a key for each script or service, with only the scopes it needs: revoking it then stops that one alone.</p>` : html``}
<h3>Add a key</h3>
${newKeyForm(view)}
</section>`;
}
