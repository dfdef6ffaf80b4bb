import type { Frame } from '../../web/frame.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { page } from '../../web/layout.ts';
import { csrfField, doneNotice, errorNotice, type PageError } from '../../web/notices.ts';
import { when } from '../../web/page-parts.ts';

/** The operator console's frame: its sections' navigation, the notices, the page itself. */

/** The console's sections, in the order its navigation lists them. */
export const SECTIONS = [
  ['/admin', 'Overview'],
  ['/admin/users', 'Users'],
  ['/admin/workspaces', 'Workspaces'],
  ['/admin/links', 'Links'],
  ['/admin/reports', 'Reports'],
  ['/admin/blocklists', 'Blocklists'],
  ['/admin/audit', 'Audit log'],
] as const;

export type SectionPath = (typeof SECTIONS)[number][0];

function consoleNav(current: SectionPath): SafeHtml {
  const entries = SECTIONS.map(([path, label]) =>
    path === current
      ? html`<a class="button small" href="${path}" aria-current="page">${label}</a>`
      : html`<a class="button secondary small" href="${path}">${label}</a>`,
  );
  return html`<nav class="presets" aria-label="Console">${entries}</nav>`;
}

export interface ConsolePage {
  title: string;
  path: SectionPath;
  frame: Frame;
  body: SafeHtml;
  /** The `done` code of the change just made, and what each code says. */
  done?: { code: string | undefined; messages: Readonly<Record<string, string>> };
  error?: PageError;
  /** Style sheets beyond the dashboard's (stats.css for charts). */
  styles?: readonly string[];
}

/** A page of the console: the Console entry of the main navigation marked, the sections under the heading. */
export function consolePage(view: ConsolePage): string {
  return page({
    title: `${view.title} · Console`,
    current: '/admin',
    frame: view.frame,
    styles: ['dashboard.css', ...(view.styles ?? [])],
    scripts: ['dashboard.js'],
    body: html`<h1>${view.title}</h1>
${consoleNav(view.path)}
${view.done ? doneNotice(view.done.code, view.done.messages) : html``}
${errorNotice(view.error)}
${view.body}`,
  });
}

/** A query's `done`, undefined when absent. */
export function doneOf(code: string): string | undefined {
  return code === '' ? undefined : code;
}

/** A time, machine-readable, shown to the minute in UTC. */
export function timeOf(date: Date): SafeHtml {
  return html`<time datetime="${date.toISOString()}">${when(date)}</time>`;
}

/** The search form of a section: one text box, sent as `q` by GET. */
export function searchForm(path: string, q: string, label: string, placeholder: string): SafeHtml {
  return html`<form method="get" action="${path}" class="row filter" role="search">
  <label class="grow">${label} <input type="search" name="q" maxlength="2048" value="${q}" placeholder="${placeholder}" autocomplete="off" spellcheck="false"></label>
  <button type="submit" class="secondary">Search</button>
</form>`;
}

/** The hidden fields that bring a form's section back as it was (its search, its filter). */
export function keptFields(fields: Readonly<Record<string, string>>): SafeHtml {
  return html`${Object.entries(fields)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}`;
}

/** A form of a row: the session's CSRF token, the row's hidden fields, what the operator fills in. */
export function rowForm(
  frame: Frame,
  action: string,
  hidden: Readonly<Record<string, string>>,
  inner: SafeHtml,
  className = 'inline',
): SafeHtml {
  return html`<form method="post" action="${action}" class="${className}">${csrfField(frame.csrfToken)}${keptFields(hidden)}${inner}</form>`;
}
