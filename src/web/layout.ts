import type { Frame } from './frame.ts';
import { html, raw, type SafeHtml } from './html.ts';
import { type Chrome, footer, header, settingsNav } from './site-header.ts';

export { LOGO } from './site-header.ts';

export interface PageOptions {
  title: string;
  body: SafeHtml;
  /** Script files under /assets/, loaded at the end of the body (CSP forbids inline script). */
  scripts?: string[];
  /** Who is signed in, their session's CSRF token and the workspace, for the navigation. */
  frame?: Frame;
  /** Extra style sheets under /assets/, after snip.css. */
  styles?: string[];
  /** Data for the page's script, as JSON inside a non-executable script element. */
  data?: unknown;
  /** The navigation entry of this page (its path), marked as the current one. */
  current?: string;
  /** A narrow column, for short forms (sign-in, sign-up). */
  narrow?: boolean;
  /** The whole width of the window, for a page that lays out its own columns (the API reference). */
  wide?: boolean;
  /** The whole <title>, when it is not "<title> · Snip". */
  documentTitle?: string;
  /** This answer's style nonce (see pagePolicy), handed to a script that writes <style> elements. */
  styleNonce?: string;
  /** A description for search engines and link previews. */
  description?: string;
  /** Keep the page out of search engines (a link's password form). */
  noindex?: boolean;
  /**
   * Which header: the app's (the default with a signed-in frame), the public site's (the default
   * without one; landing, tester, docs and pricing ask for it) or a visitor's, with the mark alone.
   */
  chrome?: Chrome;
}

/** JSON that can sit inside <script type="application/json"> without ending it early. */
function embeddedJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

export function page(options: PageOptions): string {
  const chrome = options.chrome ?? (options.frame ? 'app' : 'site');
  const data =
    options.data === undefined
      ? ''
      : `<script type="application/json" id="page-data">${embeddedJson(options.data)}</script>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.documentTitle ?? `${options.title} · Snip`}</title>
<meta name="description" content="${options.description ?? 'Snip: short links, checked before they are made.'}">
${
  options.noindex
    ? html`<meta name="robots" content="noindex, nofollow">
`
    : html``
}<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
${
  options.styleNonce
    ? html`<meta property="csp-nonce" content="${options.styleNonce}">
`
    : html``
}<link rel="stylesheet" href="/assets/snip.css">
${(options.styles ?? []).map(
  (href) => html`<link rel="stylesheet" href="/assets/${href}">
`,
)}</head>
<body>
<a class="skip" href="#content">Skip to the content</a>
${header(chrome, options.frame, options.current)}
<main id="content"${options.narrow ? html` class="narrow"` : options.wide ? html` class="wide"` : html``}>
${settingsNav(options.frame, options.current)}${options.body}
</main>
${footer(chrome)}
<div id="announcer" class="visually-hidden" role="status" aria-live="polite"></div>
${raw(data)}${(options.scripts ?? []).map((src) => html`<script src="/assets/${src}"></script>`)}
</body>
</html>
`.html;
}
