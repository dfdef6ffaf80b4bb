import type { MembershipOf, User } from '../../../core/entities.ts';
import { type Frame, workspacePath } from '../../../web/frame.ts';
import { html } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../../web/notices.ts';
import { when } from '../../../web/page-parts.ts';
import { deleteCard, emailCard, type ListedSession, sessionsCard } from './account-cards.ts';
import { twoFactorCard } from './two-factor-pages.ts';

/** GET /account: the person — their email, their workspaces with their role in each, their password. */

export interface AccountView {
  frame: Frame;
  user: User;
  memberships: readonly MembershipOf[];
  minPassword: number;
  done?: string;
  /** A refused password change. */
  passwordError?: PageError;
  /** The person's live sessions, this one marked. */
  sessions: readonly ListedSession[];
  /** Recovery codes left, when two-factor sign-in is on. */
  codesLeft: number;
  /** Mail is configured: the email can be changed by a mailed link. */
  mails: boolean;
  /** A refused form of the card it belongs to. */
  twoFactorError?: PageError;
  emailError?: PageError;
  deleteError?: PageError;
}

const DONE: Record<string, string> = {
  'password-changed': 'Your password was changed. Every other session was signed out.',
  left: 'You left the workspace.',
  'two-factor-off': 'Two-factor sign-in is off.',
  'session-ended': 'That session was signed out.',
  'others-ended': 'Every other session was signed out.',
  'email-mailed': 'We sent a link to the new address. Your email changes when it is followed.',
  'email-changed': 'Your email address was changed.',
};

function workspaces(view: AccountView) {
  if (view.memberships.length === 0) {
    return html`<p class="hint" data-state="no-workspaces">You belong to no workspace.</p>`;
  }
  return html`<div class="table-wrap"><table class="workspaces">
<thead><tr><th scope="col">Workspace</th><th scope="col">Your role</th><th scope="col">Plan</th></tr></thead>
<tbody>${view.memberships.map(
    ({ workspace, role }) => html`<tr data-workspace="${workspace.slug}">
<td data-label="Workspace"><a href="${workspacePath(workspace.slug)}">${workspace.name}</a>${workspace.personalOf === view.user.id ? html` <span class="hint">personal</span>` : ''}</td>
<td data-label="Your role" data-role="${role}">${role}</td>
<td data-label="Plan">${workspace.plan.name}</td></tr>`,
  )}</tbody></table></div>`;
}

export function accountPage(view: AccountView): string {
  const { user } = view;
  return page({
    title: 'Account Settings',
    current: '/account',
    frame: view.frame,
    styles: ['dashboard.css'],
    scripts: ['dashboard.js'],
    body: html`<h1>Account Settings</h1>
${doneNotice(view.done, DONE)}
${errorNotice(view.passwordError)}
<section class="card" aria-labelledby="you-heading">
<h2 id="you-heading">You</h2>
<dl class="facts">
  <dt>Email</dt><dd>${user.email}${user.emailVerified ? html` <span class="hint" data-state="verified">verified</span>` : ''}</dd>
  <dt>Member since</dt><dd>${when(user.createdAt)}</dd>
</dl>
</section>
<section class="card" id="workspaces" aria-labelledby="workspaces-heading">
<h2 id="workspaces-heading">Your workspaces</h2>
${workspaces(view)}
</section>
<section class="card" id="password" aria-labelledby="password-heading">
<h2 id="password-heading">Password</h2>
<form method="post" action="/account/password" class="stack narrow-form">
  ${csrfField(view.frame.csrfToken)}
  <input type="text" name="username" autocomplete="username" value="${user.email}" hidden>
  <label>Current password <input type="password" name="current" autocomplete="current-password" required></label>
  <label>New password <span class="hint">(at least ${view.minPassword} characters)</span>
    <input type="password" name="password" autocomplete="new-password" minlength="${view.minPassword}" required></label>
  <button type="submit">Change password</button>
</form>
<p class="hint">Changing the password signs out every other session of yours.</p>
</section>
${twoFactorCard({ csrfToken: view.frame.csrfToken, on: user.twoFactor, codesLeft: view.codesLeft }, view.twoFactorError)}
${sessionsCard(view.frame.csrfToken, view.sessions)}
${emailCard({ csrfToken: view.frame.csrfToken, user, mails: view.mails }, view.emailError)}
<section class="card" id="mail" aria-labelledby="mail-heading">
<h2 id="mail-heading">Mail</h2>
<p>The daily mail of links that stopped working: <a href="/account/mail">mail settings</a>.</p>
</section>
${deleteCard({ csrfToken: view.frame.csrfToken, user }, view.deleteError)}`,
  });
}
