import { html } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, errorNotice, type PageError } from '../../../web/notices.ts';

/** GET /login and GET /signup; their forms carry the double-submit CSRF token. */

export interface AuthForm {
  csrfToken: string;
  email?: string;
  error?: PageError;
}

export function signInPage(form: AuthForm, signupOpen: boolean): string {
  return page({
    title: 'Sign in',
    body: html`<section class="narrow card">
<h1>Sign in</h1>
${errorNotice(form.error)}
<form method="post" action="/login">
  ${csrfField(form.csrfToken)}
  <label>Email <input type="email" name="email" autocomplete="username" required value="${form.email ?? ''}"></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>
${signupOpen ? html`<p class="hint">No account yet? <a href="/signup">Sign up</a>.</p>` : html``}
</section>`,
  });
}

export function signUpPage(form: AuthForm, options: { open: boolean; minPassword: number }): string {
  if (!options.open) {
    return page({
      title: 'Sign up',
      body: html`<section class="narrow card" data-state="signup-closed">
<h1>Sign-up is closed</h1>
${errorNotice(form.error)}
<p>This Snip does not take new sign-ups. Its operator creates accounts with
<code>npx snip account create &lt;email&gt; --plan &lt;name&gt;</code>; ask them for one.</p>
<p>Already have an account? <a href="/login">Sign in</a>.</p>
</section>`,
    });
  }
  return page({
    title: 'Sign up',
    body: html`<section class="narrow card">
<h1>Create an account</h1>
${errorNotice(form.error)}
<form method="post" action="/signup">
  ${csrfField(form.csrfToken)}
  <label>Email <input type="email" name="email" autocomplete="email" required value="${form.email ?? ''}"></label>
  <label>Password <span class="hint">(at least ${options.minPassword} characters)</span>
    <input type="password" name="password" autocomplete="new-password" minlength="${options.minPassword}" required></label>
  <button type="submit">Sign up</button>
</form>
<p class="hint">Already have an account? <a href="/login">Sign in</a>.</p>
</section>`,
  });
}
