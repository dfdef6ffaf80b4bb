import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../../web/notices.ts';
import { invitationTokenOf, type SignupMode } from '../signup-rules.ts';

/** GET /login and GET /signup: short forms in a narrow column, carrying the signed pre-session token. */

export interface AuthForm {
  csrfToken: string;
  email?: string;
  error?: PageError;
  /** Where to go once signed in (an invitation, a workspace page): a local path, checked by safeNext. */
  next?: string;
  /** What just happened (`password-reset`), said above the form. */
  done?: string;
}

const DONE: Record<string, string> = {
  'password-reset': 'Your password was changed. Sign in with the new one.',
  'account-deleted': 'Your account was deleted.',
};

/** What the sign-in page offers besides the password. */
export interface SignInChoices {
  /** SIGNUP: under `invite`, sign-up is offered only on the way to an invitation. */
  signupMode: SignupMode;
  /** "Sign in with …" (OIDC_NAME) when an OpenID provider is configured. */
  oidcName?: string;
  /** A password can be reset by mail (mail is configured). */
  resetByMail: boolean;
}

/** Only a path of this Snip's own pages, never another site. */
export function safeNext(raw: unknown): string | undefined {
  return typeof raw === 'string' && /^\/(invitations|w)\/[A-Za-z0-9_\-/]{1,200}$/.test(raw) ? raw : undefined;
}

const nextField = (next: string | undefined) =>
  next ? html`<input type="hidden" name="next" value="${next}">` : html``;
const withNext = (path: string, next: string | undefined) =>
  next ? `${path}?next=${encodeURIComponent(next)}` : path;

/** Whether this form can lead to a sign-up: always when open, through an invitation link when by invitation. */
export function offersSignUp(mode: SignupMode, next: string | undefined): boolean {
  return mode === 'open' || (mode === 'invite' && invitationTokenOf(next) !== undefined);
}

function authPage(title: string, current: string, body: SafeHtml): string {
  return page({ title, current, narrow: true, body: html`<section class="card">${body}</section>` });
}

export function signInPage(form: AuthForm, choices: SignInChoices): string {
  const oidc = choices.oidcName
    ? html`<p><a class="button secondary" href="${withNext('/auth/oidc', form.next)}" data-oidc="start">Sign in with ${choices.oidcName}</a></p>
<p class="hint or">or with your password:</p>`
    : html``;
  return authPage(
    'Sign in',
    '/login',
    html`<h1>Sign in</h1>
<p class="hint">Your links, their clicks, and your API key.</p>
${doneNotice(form.done, DONE)}
${errorNotice(form.error)}
${oidc}
<form method="post" action="/login" class="stack">
  ${csrfField(form.csrfToken)}${nextField(form.next)}
  <label>Email <input type="email" name="email" autocomplete="username" required value="${form.email ?? ''}"></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>
${choices.resetByMail ? html`<p class="hint"><a href="/password/forgot">Forgot your password?</a></p>` : html``}
${offersSignUp(choices.signupMode, form.next) ? html`<p class="hint">No account yet? <a href="${withNext('/signup', form.next)}" data-signup="offer">Create one</a>.</p>` : html``}`,
  );
}

/** Under SIGNUP=invite, without an invitation link to sign up through: what to do instead. */
function byInvitationPage(form: AuthForm): string {
  return authPage(
    'Sign up',
    '/signup',
    html`<h1 data-state="signup-invite">Sign-up is by invitation</h1>
${errorNotice(form.error)}
<p>This Snip makes accounts only for people invited to a workspace. Open the invitation link you
were sent and choose <strong>Create an account</strong> there; or ask a workspace admin for an invitation.</p>
<p>Already have an account? <a href="/login">Sign in</a>.</p>`,
  );
}

export function signUpPage(form: AuthForm, options: { mode: SignupMode; minPassword: number }): string {
  if (options.mode === 'invite' && !offersSignUp(options.mode, form.next)) return byInvitationPage(form);
  if (options.mode === 'closed') {
    return authPage(
      'Sign up',
      '/signup',
      html`<h1 data-state="signup-closed">Sign-up is closed</h1>
${errorNotice(form.error)}
<p>This Snip does not take new sign-ups. Its operator creates accounts: ask them for one.</p>
<p>Already have an account? <a href="/login">Sign in</a>.</p>`,
    );
  }
  return authPage(
    'Sign up',
    '/signup',
    html`<h1>Create an account</h1>
<p class="hint">Shorten links from the dashboard or through the API, and see their clicks.</p>
${errorNotice(form.error)}
<form method="post" action="/signup" class="stack">
  ${csrfField(form.csrfToken)}${nextField(form.next)}
  <label>Email <input type="email" name="email" autocomplete="email" required value="${form.email ?? ''}"></label>
  <label>Password <span class="hint">at least ${options.minPassword} characters</span>
    <input type="password" name="password" autocomplete="new-password" minlength="${options.minPassword}" required></label>
  <button type="submit">Create the account</button>
</form>
<p class="hint">Already have an account? <a href="${withNext('/login', form.next)}">Sign in</a>.</p>`,
  );
}

/**
 * With mail, the one answer to a sign-up, whether the email is new or has an account: the mail says
 * which (a confirmation link, or how to sign in), so the page never does.
 */
export function signUpMailedPage(email: string, next: string | undefined): string {
  return authPage(
    'Check your email',
    '/signup',
    html`<h1 data-state="signup-mailed">Check your email</h1>
<p class="notice" role="status">We sent a message to <strong>${email}</strong>.</p>
<p>Follow the link in it to confirm the address, then sign in with your password.</p>
<p class="hint">Has that address an account already? Then the message says how to sign in or choose a new
password. Nothing arrived? Look in the spam folder.</p>
<p><a class="button secondary" href="${withNext('/login', next)}">Sign in</a></p>`,
  );
}
