import type { Account, ApiKeyInfo } from '../../../core/entities.ts';
import type { Frame } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../../web/notices.ts';
import { when } from './link-parts.ts';

/** GET /account: Account Settings, with API Access (the key once, its prefix after) and the password. */

export interface AccountView {
  frame: Frame;
  account: Account;
  /** The live key, when the plan has API access. */
  key: ApiKeyInfo | undefined;
  /** The full key, right after it was created or rotated; shown this once only. */
  freshKey?: string;
  done?: string;
  error?: PageError;
  minPassword: number;
}

const DONE: Record<string, string> = {
  'password-changed': 'Your password was changed. Every other session was signed out.',
};

function keyState(view: AccountView): SafeHtml {
  if (view.freshKey) {
    return html`<div class="fresh-key" data-state="key-shown">
<p><strong>Your new API key.</strong> Copy it now: it is shown only this once, and Snip keeps only its hash.</p>
<p class="copyable"><code id="api-key">${view.freshKey}</code>
<button type="button" data-copy-from="api-key" aria-label="Copy the API key">Copy key</button></p>
</div>`;
  }
  if (view.key) {
    return html`<p data-state="key-prefix">Your key starts with <code id="api-key-prefix">${view.key.prefix}</code>…
<span class="hint">(created ${when(view.key.createdAt)}; the full key was shown once, when it was made)</span></p>`;
  }
  return html`<p data-state="no-key">This account has no live key.</p>`;
}

function apiAccessCard(view: AccountView): SafeHtml {
  const { plan } = view.account;
  if (!plan.apiAccess) {
    return html`<section class="card" id="api-access">
<h2>API Access</h2>
<p class="notice" data-state="no-api-access">Your plan, <strong>${plan.name}</strong>, does not include API access, so no API key is shown.
You can still shorten links on the <a href="/dashboard">dashboard</a>. Ask the operator of this Snip for a plan with API access.</p>
</section>`;
  }
  return html`<section class="card" id="api-access">
<h2>API Access</h2>
<p>Your plan, <strong>${plan.name}</strong>, includes API access: send the key in the <code>X-API-Key</code> header of <code>POST /create</code>
(up to ${plan.rateLimitPerHour.toLocaleString('en-US')} requests an hour).</p>
${keyState(view)}
<form method="post" action="/account/key" class="stack rotate">
  ${csrfField(view.frame.csrfToken)}
  <label class="check"><input type="checkbox" name="understand" value="yes" required>
    I understand the ${view.key ? 'old key stops working at once' : 'new key is shown only once'}.</label>
  <button type="submit" class="${view.key ? 'danger' : ''}">${view.key ? 'Rotate key' : 'Create a key'}</button>
</form>
</section>`;
}

export function accountPage(view: AccountView): string {
  const { account } = view;
  return page({
    title: 'Account Settings',
    current: '/account',
    signedInAs: view.frame.email,
    csrfToken: view.frame.csrfToken,
    styles: ['dashboard.css'],
    scripts: ['dashboard.js'],
    body: html`<h1>Account Settings</h1>
${doneNotice(view.done, DONE)}
${errorNotice(view.error)}
<section class="card" aria-labelledby="plan-heading">
<h2 id="plan-heading">Your account</h2>
<dl class="facts">
  <dt>Email</dt><dd>${account.email}</dd>
  <dt>Plan</dt><dd data-plan="${account.plan.name}">${account.plan.name} — ${account.plan.apiAccess ? 'with API access' : 'without API access'},
    up to ${account.plan.urlQuota.toLocaleString('en-US')} links</dd>
  <dt>Member since</dt><dd>${when(account.createdAt)}</dd>
</dl>
</section>
${apiAccessCard(view)}
<section class="card" id="password" aria-labelledby="password-heading">
<h2 id="password-heading">Password</h2>
<form method="post" action="/account/password" class="stack narrow-form">
  ${csrfField(view.frame.csrfToken)}
  <input type="text" name="username" autocomplete="username" value="${account.email}" hidden>
  <label>Current password <input type="password" name="current" autocomplete="current-password" required></label>
  <label>New password <span class="hint">(at least ${view.minPassword} characters)</span>
    <input type="password" name="password" autocomplete="new-password" minlength="${view.minPassword}" required></label>
  <button type="submit">Change password</button>
</form>
<p class="hint">Changing the password signs out every other session of this account.</p>
</section>`,
  });
}
