import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, errorNotice, type PageError } from '../../../web/notices.ts';

/** GET /login and GET /signup: short forms in a narrow column, carrying the signed pre-session token. */

export interface AuthForm {
  csrfToken: string;
  email?: string;
  error?: PageError;
}

function authPage(title: string, current: string, body: SafeHtml): string {
  return page({ title, current, narrow: true, body: html`<section class="card">${body}</section>` });
}

export function signInPage(form: AuthForm, signupOpen: boolean): string {
  return authPage(
    'Sign in',
    '/login',
    html`<h1>Sign in</h1>
<p class="hint">Your links, their clicks, and your API key.</p>
${errorNotice(form.error)}
<form method="post" action="/login" class="stack">
  ${csrfField(form.csrfToken)}
  <label>Email <input type="email" name="email" autocomplete="username" required value="${form.email ?? ''}"></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>
${signupOpen ? html`<p class="hint">No account yet? <a href="/signup">Create one</a>.</p>` : html``}`,
  );
}

export function signUpPage(form: AuthForm, options: { open: boolean; minPassword: number }): string {
  if (!options.open) {
    return authPage(
      'Sign up',
      '/signup',
      html`<h1 data-state="signup-closed">Sign-up is closed</h1>
${errorNotice(form.error)}
<p>This Snip does not take new sign-ups. Its operator creates accounts with
<code>npx snip account create &lt;email&gt; --plan &lt;name&gt;</code>; ask them for one.</p>
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
  ${csrfField(form.csrfToken)}
  <label>Email <input type="email" name="email" autocomplete="email" required value="${form.email ?? ''}"></label>
  <label>Password <span class="hint">at least ${options.minPassword} characters</span>
    <input type="password" name="password" autocomplete="new-password" minlength="${options.minPassword}" required></label>
  <button type="submit">Create the account</button>
</form>
<p class="hint">Already have an account? <a href="/login">Sign in</a>.</p>`,
  );
}
