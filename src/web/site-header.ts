import { may } from '../core/authorization.ts';
import { type Frame, type WorkspaceNav, workspacePath } from './frame.ts';
import { html, raw, type SafeHtml } from './html.ts';
import { siteFacts } from './site-facts.ts';
import { themeSwitch } from './theme.ts';

/**
 * The three headers of Snip's pages. The app's (a signed-in user's pages): the workspace switcher,
 * Links, Stats, Settings and an account menu. The public site's (landing, tester, docs, pricing,
 * sign-in): the site's pages and signing in. A visitor's (a short link's 404, 410, password, report
 * pages): the mark alone. On a phone the navigation folds behind a menu button, a popover that
 * needs no script.
 */

/** Snip's mark: two links of a chain, cut short. */
export const LOGO = raw(
  '<svg viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="8" fill="#1d4ed8"/>' +
    '<path d="M9 21a4 4 0 0 1 0-6l3-3a4 4 0 0 1 6 0M23 11a4 4 0 0 1 0 6l-3 3a4 4 0 0 1-6 0" fill="none" ' +
    'stroke="#fff" stroke-width="2.6" stroke-linecap="round"/></svg>',
);

const MENU_ICON = raw(
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M4 7h16M4 12h16M4 17h16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>',
);

/** The settings pages of a workspace, each shown to those who may use it; Settings leads to the first. */
function settingsSections(workspace: WorkspaceNav): Array<[string, string]> {
  if (!may(workspace.role, 'members:read')) return [];
  const path = (rest: string) => workspacePath(workspace.slug, rest);
  return [
    [path('/settings'), 'General'],
    [path('/members'), 'Members'],
    [path('/keys'), 'API keys'],
    ...(may(workspace.role, 'domains:write') ? [[path('/domains'), 'Domains'] as [string, string]] : []),
    ...(may(workspace.role, 'webhooks:write') ? [[path('/webhooks'), 'Webhooks'] as [string, string]] : []),
    ...(may(workspace.role, 'plan:change') ? [[path('/billing'), 'Billing'] as [string, string]] : []),
  ];
}

/** A navigation link; `page` marks this very page, `true` the section it is in. */
function navLink(path: string, label: string, current: 'page' | 'true' | false): SafeHtml {
  return current
    ? html`<a href="${path}" aria-current="${current}">${label}</a>`
    : html`<a href="${path}">${label}</a>`;
}

/** The workspace switcher: a disclosure of links, so it needs no script. */
function switcher(workspace: WorkspaceNav): SafeHtml {
  const others = workspace.all.filter((w) => w.slug !== workspace.slug);
  if (others.length === 0) return html`<span class="workspace-name">${workspace.name}</span>`;
  return html`<details class="switcher"><summary aria-label="Workspace: ${workspace.name}. Switch workspace" title="${workspace.name}">${workspace.name}</summary><ul>${others.map((w) => html`<li><a href="${workspacePath(w.slug)}">${w.name}</a></li>`)}</ul></details>`;
}

function signOut(frame: Frame): SafeHtml {
  return html`<form method="post" action="/logout" class="sign-out"><input type="hidden" name="_csrf" value="${frame.csrfToken}"><button type="submit" class="link">Sign out</button></form>`;
}

/** Who is signed in, and their own pages: a menu under their initial. */
function accountMenu(frame: Frame, current: string | undefined): SafeHtml {
  const initial = (frame.email[0] ?? '?').toUpperCase();
  return html`<details class="account-menu"><summary><span class="avatar" aria-hidden="true">${initial}</span><span class="visually-hidden">Account: </span><span class="who">${frame.email}</span></summary>
<div class="account-items"><p class="who-full">${frame.email}</p>${navLink('/account', 'Account', current === '/account' && 'page')}${frame.operator ? navLink('/admin', 'Operator console', current === '/admin' && 'page') : ''}${signOut(frame)}</div></details>`;
}

/** The folding navigation: a menu button on a phone, the links themselves on a wider screen. */
function foldingNav(links: SafeHtml, end: SafeHtml): SafeHtml {
  return html`<button type="button" class="nav-toggle ghost" popovertarget="main-nav" aria-label="Menu">${MENU_ICON}</button>
<nav aria-label="Main" id="main-nav" popover><div class="nav-links">${links}</div>${end}</nav>`;
}

function appHeader(frame: Frame, current: string | undefined): SafeHtml {
  const { workspace } = frame;
  if (!workspace) {
    const links = navLink('/dashboard', 'Links', false);
    return html`<a class="brand" href="/dashboard">${LOGO}<span>Snip</span></a>${foldingNav(links, accountMenu(frame, current))}`;
  }
  const path = (rest: string) => workspacePath(workspace.slug, rest);
  const settings = settingsSections(workspace);
  const inSettings = settings.some(([href]) => href === current);
  const links = html`${navLink(path(''), 'Links', current === path('') && 'page')}${navLink(path('/stats'), 'Stats', current === path('/stats') && 'page')}${settings[0] ? navLink(settings[0][0], 'Settings', inSettings && (current === settings[0][0] ? 'page' : 'true')) : ''}`;
  return html`<a class="brand" href="${path('')}">${LOGO}<span>Snip</span></a>${switcher(workspace)}${foldingNav(links, accountMenu(frame, current))}`;
}

function siteHeader(frame: Frame | undefined, current: string | undefined): SafeHtml {
  const link = (path: string, label: string) => navLink(path, label, current === path && 'page');
  const pricing = siteFacts().pricing ? link('/pricing', 'Pricing') : html``;
  const links = html`${pricing}${link('/tester', 'Tester')}${link('/docs', 'API')}`;
  const end = frame
    ? html`<div class="nav-end"><span class="who">${frame.email}</span><a href="/dashboard" class="button small">Dashboard</a>${signOut(frame)}</div>`
    : html`<div class="nav-end">${link('/login', 'Sign in')}<a href="/signup" class="button small">Sign up</a></div>`;
  return html`<a class="brand" href="/">${LOGO}<span>Snip</span></a>${foldingNav(links, end)}`;
}

export type Chrome = 'app' | 'site' | 'visitor';

/** The page's header and, for a settings page, the settings' own navigation under it. */
export function header(chrome: Chrome, frame: Frame | undefined, current: string | undefined): SafeHtml {
  if (chrome === 'visitor') {
    return html`<header class="top visitor"><div class="bar"><a class="brand" href="/">${LOGO}<span>Snip</span></a></div></header>`;
  }
  const bar = chrome === 'app' && frame ? appHeader(frame, current) : siteHeader(frame, current);
  return html`<header class="top ${chrome}"><div class="bar">${bar}</div></header>`;
}

/** The tabs of a workspace's settings pages, on those pages only. */
export function settingsNav(frame: Frame | undefined, current: string | undefined): SafeHtml {
  const sections = frame?.workspace ? settingsSections(frame.workspace) : [];
  if (!sections.some(([href]) => href === current)) return html``;
  return html`<nav class="tabs" aria-label="Settings">${sections.map(([href, label]) => navLink(href, label, href === current && 'page'))}</nav>`;
}

/** The footer: the site's pages, or only the mark for a visitor. */
export function footer(chrome: Chrome): SafeHtml {
  if (chrome === 'visitor') return html`<footer class="bottom">Short links by <a href="/">Snip</a></footer>`;
  const pricing = siteFacts().pricing ? html`<a href="/pricing">Pricing</a> · ` : html``;
  return html`<footer class="bottom"><p>Snip · ${pricing}<a href="/docs">API reference</a> · <a href="/openapi.json">OpenAPI</a> · <a href="/tester">Try the API</a></p>${themeSwitch()}</footer>`;
}
