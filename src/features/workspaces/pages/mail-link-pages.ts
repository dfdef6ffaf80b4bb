import type { Frame } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { messagePage } from '../../../web/message-page.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../../web/notices.ts';

/**
 * The pages of the mailed links: asking for a password reset, choosing the new password, a link
 * that no longer works, and "Confirm your email" for a signed-in user whose email is unconfirmed.
 */

function narrowCard(title: string, current: string, body: SafeHtml, frame?: Frame): string {
  return page({ title, current, frame, narrow: true, body: html`<section class="card">${body}</section>` });
}

export function forgotPasswordPage(form: { csrfToken: string; email?: string; error?: PageError }): string {
  return narrowCard(
    'Forgot your password?',
    '/login',
    html`<h1>Forgot your password?</h1>
<p class="hint">Enter the email of your account: we mail it a link to choose a new password.</p>
${errorNotice(form.error)}
<form method="post" action="/password/forgot" class="stack">
  ${csrfField(form.csrfToken)}
  <label>Email <input type="email" name="email" autocomplete="username" required value="${form.email ?? ''}"></label>
  <button type="submit">Mail me a link</button>
</form>
<p class="hint"><a href="/login">Back to sign-in</a></p>`,
  );
}

/** The one answer to a reset request, whether or not the email has an account. */
export function resetRequestedPage(): string {
  return narrowCard(
    'Check your email',
    '/login',
    html`<h1 data-state="reset-requested">Check your email</h1>
<p>If an account exists for that email, a link is on its way. It is valid for one hour and works once.</p>
<p class="hint">Nothing arrived? Look in the spam folder, or ask again in a few minutes.</p>
<p><a class="button secondary" href="/login">Back to sign-in</a></p>`,
  );
}

/** Without SMTP_URL no link can be mailed: the operator sets the password instead. */
export function resetByOperatorPage(): string {
  return narrowCard(
    'Forgot your password?',
    '/login',
    html`<h1 data-state="reset-by-operator">Forgot your password?</h1>
<p>This Snip sends no mail, so it cannot mail you a link. Ask its operator to set a new password for you.</p>
<p><a class="button secondary" href="/login">Back to sign-in</a></p>`,
  );
}

export function newPasswordPage(form: {
  csrfToken: string;
  token: string;
  minPassword: number;
  error?: PageError;
}): string {
  return narrowCard(
    'Choose a new password',
    '/login',
    html`<h1>Choose a new password</h1>
${errorNotice(form.error)}
<form method="post" action="/password/reset/${form.token}" class="stack">
  ${csrfField(form.csrfToken)}
  <label>New password <span class="hint">at least ${form.minPassword} characters</span>
    <input type="password" name="password" autocomplete="new-password" minlength="${form.minPassword}" required></label>
  <button type="submit">Set the password</button>
</form>
<p class="hint">Every session of the account is signed out once it is set.</p>`,
  );
}

/** A mailed link that was used, has expired or never existed (or too many such from one address). */
export function linkRefusedPage(error: PageError, retry: { href: string; label: string }): string {
  return messagePage({ title: 'This link does not work', error, next: retry });
}

const CONFIRM_DONE: Readonly<Record<string, string>> = {
  'verification-sent': 'A new link is on its way.',
};

export function confirmEmailPage(view: { frame: Frame; done?: string; error?: PageError }): string {
  return narrowCard(
    'Confirm your email',
    '/email/verify',
    html`<h1 data-state="email-unverified">Confirm your email</h1>
${doneNotice(view.done, CONFIRM_DONE)}
${errorNotice(view.error)}
<p>We mailed a link to <strong>${view.frame.email}</strong>. Follow it to confirm that this address is
yours; your workspaces open once it is confirmed. The link is valid for 24 hours.</p>
<form method="post" action="/email/verify/resend" class="stack">
  ${csrfField(view.frame.csrfToken)}
  <button type="submit" class="secondary">Mail me a new link</button>
</form>`,
    view.frame,
  );
}
