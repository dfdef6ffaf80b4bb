import type { Frame } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { page } from '../../../web/layout.ts';
import { csrfField, errorNotice, type PageError } from '../../../web/notices.ts';
import type { TwoFactorSetup } from '../two-factor.ts';

/**
 * The pages of two-factor sign-in (docs/api.md §22): the code asked for after a right password, the
 * secret shown once (a QR code and text) with the form that turns it on, and the recovery codes,
 * shown once.
 */

export function signInCodePage(form: { csrfToken: string; next?: string; error?: PageError }): string {
  const next = form.next ? html`<input type="hidden" name="next" value="${form.next}">` : html``;
  return page({
    title: 'Two-factor sign-in',
    current: '/login',
    narrow: true,
    body: html`<section class="card"><h1 data-state="code-asked">Two-factor sign-in</h1>
${errorNotice(form.error)}
<form method="post" action="/login/code" class="stack">
  ${csrfField(form.csrfToken)}${next}
  <label>The code your authenticator app shows, or a recovery code
    <input type="text" name="code" autocomplete="one-time-code" maxlength="32" spellcheck="false" required autofocus></label>
  <button type="submit">Sign in</button>
</form>
<p class="hint">Lost your device? Type one of your recovery codes; each works once.</p>
<p class="hint"><a href="/login">Start again</a></p></section>`,
  });
}

export interface SetupView {
  frame: Frame;
  setup: TwoFactorSetup;
  /** The QR code of the setup's otpauth:// URI, as an image address (an SVG data URI). */
  qr: string;
  error?: PageError;
}

/** GET /account/2fa: the secret, once, and a code of it to turn two-factor sign-in on. */
export function twoFactorSetupPage(view: SetupView): string {
  const groups = view.setup.secret.match(/.{1,4}/g)?.join(' ') ?? view.setup.secret;
  return page({
    title: 'Turn on two-factor sign-in',
    current: '/account',
    frame: view.frame,
    styles: ['dashboard.css'],
    body: html`<h1>Turn on two-factor sign-in</h1>
${errorNotice(view.error)}
<section class="card" aria-labelledby="scan-heading">
<h2 id="scan-heading">1. Add Snip to your authenticator app</h2>
<p>Scan this code with the app, or type the key below into it. It is shown on this page only.</p>
<p><img src="${view.qr}" width="200" height="200" alt="QR code of the two-factor key" data-qr="totp"></p>
<p>Key: <code data-secret="${view.setup.secret}">${groups}</code></p>
</section>
<section class="card" aria-labelledby="confirm-heading">
<h2 id="confirm-heading">2. Type the code it shows</h2>
<form method="post" action="/account/2fa" class="stack narrow-form">
  ${csrfField(view.frame.csrfToken)}
  <input type="hidden" name="setup" value="${view.setup.sealed}">
  <label>Six-digit code <input type="text" name="code" inputmode="numeric" pattern="[0-9 ]{6,7}" autocomplete="one-time-code" maxlength="7" required></label>
  <button type="submit">Turn on</button>
</form>
<p class="hint"><a href="/account">Back to Account Settings</a></p>
</section>`,
  });
}

/** After turning it on: the ten recovery codes, shown this once. */
export function recoveryCodesPage(frame: Frame, codes: readonly string[]): string {
  return page({
    title: 'Your recovery codes',
    current: '/account',
    frame,
    styles: ['dashboard.css'],
    body: html`<h1 data-state="two-factor-on">Two-factor sign-in is on</h1>
<section class="card" aria-labelledby="codes-heading">
<h2 id="codes-heading">Your recovery codes</h2>
<p>Keep these somewhere safe. Each one signs you in once without your device; they are shown on this
page only.</p>
<ul class="recovery-codes" data-recovery-codes>${codes.map((code) => html`<li><code>${code}</code></li>`)}</ul>
<p><a class="button" href="/account">Done</a></p>
</section>`,
  });
}

/** The Account Settings card of two-factor sign-in: turn on, or off with a code. */
export function twoFactorCard(
  view: { csrfToken: string; on: boolean; codesLeft: number },
  error?: PageError,
): SafeHtml {
  const body = view.on
    ? html`<p data-two-factor="on">Two-factor sign-in is <strong>on</strong>. Recovery codes left: ${view.codesLeft}.</p>
${errorNotice(error)}
<form method="post" action="/account/2fa/off" class="stack narrow-form">
  ${csrfField(view.csrfToken)}
  <label>A current code (or a recovery code) <input type="text" name="code" autocomplete="one-time-code" maxlength="32" required></label>
  <button type="submit" class="secondary">Turn off</button>
</form>`
    : html`<p data-two-factor="off">Two-factor sign-in is off. With it on, signing in with your password also
asks for a code from an authenticator app.</p>
<p><a class="button" href="/account/2fa">Turn on two-factor sign-in</a></p>`;
  return html`<section class="card" id="two-factor" aria-labelledby="two-factor-heading">
<h2 id="two-factor-heading">Two-factor sign-in</h2>
${body}
</section>`;
}

/** GET /email/change/:token: the link is good; a button (not the opening of a link) makes the change. */
export function confirmEmailChangePage(form: {
  csrfToken: string;
  token: string;
  error?: PageError;
}): string {
  return page({
    title: 'Confirm your new email',
    current: '/account',
    narrow: true,
    body: html`<section class="card"><h1 data-state="email-change">Confirm your new email</h1>
${errorNotice(form.error)}
<p>Your Snip account will use the address this link was mailed to.</p>
<form method="post" action="/email/change/${form.token}" class="stack">
  ${csrfField(form.csrfToken)}
  <button type="submit">Use this address</button>
</form></section>`,
  });
}
