import { html, raw, type SafeHtml } from './html.ts';

export interface PageOptions {
  title: string;
  body: SafeHtml;
  /** Script files under /assets/, loaded at the end of the body (CSP forbids inline script). */
  scripts?: string[];
  /** Who is signed in, for the navigation. */
  signedInAs?: string;
  /** The session's CSRF token, for the sign-out form of a signed-in page. */
  csrfToken?: string;
  /** Extra style sheets under /assets/, after snip.css. */
  styles?: string[];
  /** Data for the page's script, as JSON inside a non-executable script element. */
  data?: unknown;
}

/** JSON that can sit inside <script type="application/json"> without ending it early. */
function embeddedJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

export function page(options: PageOptions): string {
  const nav = options.signedInAs
    ? html`<a href="/dashboard">Dashboard</a><a href="/account">Account</a><span class="who">${options.signedInAs}</span><form method="post" action="/logout" class="sign-out"><input type="hidden" name="_csrf" value="${options.csrfToken ?? ''}"><button type="submit" class="link">Sign out</button></form>`
    : html`<a href="/signup">Sign up</a><a href="/login">Sign in</a>`;
  const data =
    options.data === undefined
      ? ''
      : `<script type="application/json" id="page-data">${embeddedJson(options.data)}</script>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Snip</title>
<link rel="stylesheet" href="/assets/snip.css">
${(options.styles ?? []).map(
  (href) => html`<link rel="stylesheet" href="/assets/${href}">
`,
)}</head>
<body>
<header class="top"><a class="brand" href="/">Snip</a><nav><a href="/tester">Tester</a><a href="/openapi.json">API docs</a>${nav}</nav></header>
<main>
${options.body}
</main>
${raw(data)}${(options.scripts ?? []).map((src) => html`<script src="/assets/${src}"></script>`)}
</body>
</html>
`.html;
}
