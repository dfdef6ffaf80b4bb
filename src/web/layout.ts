import { may } from '../core/authorization.ts';
import { type Frame, type WorkspaceNav, workspacePath } from './frame.ts';
import { html, raw, type SafeHtml } from './html.ts';

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
}

/** Snip's mark: two links of a chain, cut short. */
export const LOGO = raw(
  '<svg viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="8" fill="#1d4ed8"/>' +
    '<path d="M9 21a4 4 0 0 1 0-6l3-3a4 4 0 0 1 6 0M23 11a4 4 0 0 1 0 6l-3 3a4 4 0 0 1-6 0" fill="none" ' +
    'stroke="#fff" stroke-width="2.6" stroke-linecap="round"/></svg>',
);

/** JSON that can sit inside <script type="application/json"> without ending it early. */
function embeddedJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function navLink(path: string, label: string, current: string | undefined): SafeHtml {
  return path === current
    ? html`<a href="${path}" aria-current="page">${label}</a>`
    : html`<a href="${path}">${label}</a>`;
}

/** The workspace switcher: a disclosure of links, so it needs no script. */
function switcher(workspace: WorkspaceNav): SafeHtml {
  const others = workspace.all.filter((w) => w.slug !== workspace.slug);
  if (others.length === 0) return html`<span class="workspace-name">${workspace.name}</span>`;
  return html`<details class="switcher"><summary aria-label="Workspace: ${workspace.name}. Switch workspace" title="${workspace.name}">${workspace.name}</summary><ul>${others.map((w) => html`<li><a href="${workspacePath(w.slug)}">${w.name}</a></li>`)}</ul></details>`;
}

function workspaceLinks(workspace: WorkspaceNav, link: (path: string, label: string) => SafeHtml): SafeHtml {
  const path = (rest: string) => workspacePath(workspace.slug, rest);
  const admin = may(workspace.role, 'members:read');
  const domains = may(workspace.role, 'domains:write') ? link(path('/domains'), 'Domains') : '';
  const webhooks = may(workspace.role, 'webhooks:write') ? link(path('/webhooks'), 'Webhooks') : '';
  const billing = may(workspace.role, 'plan:change') ? link(path('/billing'), 'Billing') : '';
  return html`${switcher(workspace)}${link(path(''), 'Links')}${link(path('/stats'), 'Stats')}${admin ? html`${link(path('/members'), 'Members')}${link(path('/keys'), 'Keys')}${domains}${webhooks}${link(path('/settings'), 'Settings')}${billing}` : ''}`;
}

function navigation(options: PageOptions): SafeHtml {
  const link = (path: string, label: string) => navLink(path, label, options.current);
  const { frame } = options;
  const own = frame
    ? html`${frame.workspace ? workspaceLinks(frame.workspace, link) : link('/dashboard', 'Dashboard')}${frame.operator ? link('/admin', 'Console') : ''}${link('/account', 'Account')}<span class="who">${frame.email}</span><form method="post" action="/logout" class="sign-out"><input type="hidden" name="_csrf" value="${frame.csrfToken}"><button type="submit" class="link">Sign out</button></form>`
    : html`${link('/pricing', 'Pricing')}${link('/login', 'Sign in')}<a href="/signup" class="button small">Sign up</a>`;
  return html`<nav aria-label="Main">${link('/tester', 'Tester')}${link('/docs', 'API')}${own}</nav>`;
}

export function page(options: PageOptions): string {
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
<header class="top"><a class="brand" href="/">${LOGO}<span>Snip</span></a>${navigation(options)}</header>
<main id="content"${options.narrow ? html` class="narrow"` : options.wide ? html` class="wide"` : html``}>
${options.body}
</main>
<footer class="bottom">Snip · <a href="/pricing">Pricing</a> · <a href="/docs">API reference</a> · <a href="/openapi.json">OpenAPI</a> · <a href="/tester">Try the API</a></footer>
<div id="announcer" class="visually-hidden" role="status" aria-live="polite"></div>
${raw(data)}${(options.scripts ?? []).map((src) => html`<script src="/assets/${src}"></script>`)}
</body>
</html>
`.html;
}
