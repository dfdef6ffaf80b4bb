import type { User } from '../../../core/entities.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { csrfField, errorNotice, type PageError } from '../../../web/notices.ts';
import { when } from '../../../web/page-parts.ts';

/**
 * The cards of Account Settings that keep an account trusted (docs/api.md §22): its sessions, a
 * change of email by mail, and deleting it.
 */

/** One of the person's sessions as listed: no address, no user agent, only families. */
export interface ListedSession {
  /** What the page names it by in its form (never the cookie's id, nor its stored hash). */
  handle: string;
  agent: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  current: boolean;
}

function sessionRow(csrfToken: string, session: ListedSession): SafeHtml {
  const name = session.agent ?? 'Unknown browser';
  const action = session.current
    ? html`<span class="hint" data-session="current">This session</span>`
    : html`<form method="post" action="/account/sessions/end" class="inline">${csrfField(csrfToken)}
<input type="hidden" name="session" value="${session.handle}"><button type="submit" class="secondary small" data-action="end-session">Sign out<span class="visually-hidden"> ${name}, started ${when(session.createdAt)}</span></button></form>`;
  return html`<tr data-session-row="${session.current ? 'current' : 'other'}">
<td data-label="Browser">${name}</td>
<td data-label="Signed in">${when(session.createdAt)}</td>
<td data-label="Last seen">${when(session.lastSeenAt)}</td>
<td>${action}</td></tr>`;
}

export function sessionsCard(csrfToken: string, sessions: readonly ListedSession[]): SafeHtml {
  const others = sessions.some((session) => !session.current);
  return html`<section class="card" id="sessions" aria-labelledby="sessions-heading">
<h2 id="sessions-heading">Where you are signed in</h2>
<div class="table-wrap"><table class="sessions stacked">
<thead><tr><th scope="col">Browser</th><th scope="col">Signed in</th><th scope="col">Last seen</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>${sessions.map((session) => sessionRow(csrfToken, session))}</tbody></table></div>
${
  others
    ? html`<form method="post" action="/account/sessions/end-others">${csrfField(csrfToken)}
<button type="submit" class="secondary" data-action="end-other-sessions">Sign out everywhere else</button></form>`
    : html``
}
<p class="hint">Times are UTC; last seen is noted every few minutes.</p>
</section>`;
}

export function emailCard(
  view: { csrfToken: string; user: User; mails: boolean },
  error?: PageError,
): SafeHtml {
  const body = view.mails
    ? html`${errorNotice(error)}<form method="post" action="/account/email" class="stack narrow-form">
  ${csrfField(view.csrfToken)}
  <label>New email <input type="email" name="email" autocomplete="email" required></label>
  ${
    view.user.passwordHash
      ? html`<label>Your password <input type="password" name="password" autocomplete="current-password" required></label>`
      : html`<label>Your current email, to confirm <input type="email" name="password" autocomplete="off" required></label>`
  }
  <button type="submit">Send a confirmation link</button>
</form>
<p class="hint">We mail a link to the new address; nothing changes until it is followed. The current address is told.</p>`
    : html`${errorNotice(error)}<p class="hint" data-state="email-change-off">This Snip sends no mail: ask its operator to change your email.</p>`;
  return html`<section class="card" id="email" aria-labelledby="email-heading">
<h2 id="email-heading">Email address</h2>
${body}
</section>`;
}

export function deleteCard(view: { csrfToken: string; user: User }, error?: PageError): SafeHtml {
  const confirm = view.user.passwordHash
    ? html`<label>Your password <input type="password" name="confirmation" autocomplete="current-password" required></label>`
    : html`<label>Type your email to confirm <input type="email" name="confirmation" autocomplete="off" required></label>`;
  return html`<section class="card" id="delete" aria-labelledby="delete-heading">
<h2 id="delete-heading">Delete your account</h2>
${errorNotice(error)}
<p>Your personal workspace, its links and keys, your keys in other workspaces and your sessions go
for good. A team workspace you alone own needs another owner first.</p>
<form method="post" action="/account/delete" class="stack narrow-form">
  ${csrfField(view.csrfToken)}
  ${confirm}
  <button type="submit" class="danger" data-action="delete-account">Delete my account</button>
</form>
</section>`;
}
