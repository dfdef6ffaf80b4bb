import { html } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../../web/notices.ts';
import { when } from '../../../web/page-parts.ts';
import { type ApiAccessView, apiAccessCard } from './api-access-card.ts';

/** GET /account: Account Settings, with API Access (each key once, its prefix after) and the password. */

export interface AccountView extends ApiAccessView {
  minPassword: number;
  /** A refused password change. */
  passwordError?: PageError;
}

const DONE: Record<string, string> = {
  'password-changed': 'Your password was changed. Every other session was signed out.',
};

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
${errorNotice(view.passwordError)}
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
