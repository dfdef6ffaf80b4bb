import type { Link } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import type { LinkSearch } from '../../core/ports/abuse-store.ts';
import { shortUrl } from '../../core/short-url.ts';
import { field, positiveInt } from '../../web/form-fields.ts';
import type { Frame } from '../../web/frame.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { longUrlLink } from '../../web/page-parts.ts';
import { frameOf } from '../../web/session/handlers.ts';
import { linkSearchOf } from '../abuse/index.ts';
import { type AdminPageOptions, PAGE_ROWS, workspaceSlugs } from './admin-deps.ts';
import { consolePage, doneOf, rowForm, searchForm } from './admin-nav.ts';
import type { Section, SectionAction } from './section.ts';

/**
 * /admin/links (docs/api.md §13, §22): the newest links of every workspace, or those found by a code, a short URL of
 * this Snip, a host or a URL (the page says which it searched); each disabled with a reason (it
 * answers 410 until enabled) or enabled again.
 */

const PATH = '/admin/links';
/** How many of the newest links the section shows before a search. */
const NEWEST = 50;

const DONE: Record<string, string> = {
  disabled: 'The link is disabled: it answers 410 and counts nothing.',
  enabled: 'The link redirects again.',
};

/** What the search box held, as the page names it. */
type Searched = 'code' | 'short-url' | 'host' | 'url';

const SEARCHED: Readonly<Record<Searched, string>> = {
  code: 'the code',
  'short-url': 'the short URL’s code, on every domain',
  host: 'links to the host (http or https, any port)',
  url: 'targets starting with the URL',
};

function searchedOf(q: string, search: LinkSearch): Searched {
  const url = /^https?:\/\//i.test(q);
  if ('code' in search) return url ? 'short-url' : 'code';
  return url ? 'url' : 'host';
}

function state(link: Link): SafeHtml {
  const { disabled } = link;
  if (disabled === null) return html`<span class="badge" data-state="live">live</span>`;
  return html`<span class="badge gone" data-state="disabled">disabled</span> <span class="hint" data-reason>${disabled.reason}</span>`;
}

function actions(frame: Frame, link: Link, q: string): SafeHtml {
  const hidden = { id: String(link.id), q };
  const named = html`<span class="visually-hidden"> ${link.code}</span>`;
  if (link.disabled !== null) {
    return rowForm(
      frame,
      `${PATH}/enable`,
      hidden,
      html`<button type="submit" class="secondary small" data-action="enable">Enable${named}</button>`,
    );
  }
  const disable = rowForm(
    frame,
    `${PATH}/disable`,
    hidden,
    html`<label>Reason <input type="text" name="reason" required maxlength="500" placeholder="phishing"></label>
<button type="submit" class="danger small" data-action="disable">Disable${named}</button>`,
    'stack',
  );
  return html`<details class="menu"><summary>Disable<span class="visually-hidden"> ${link.code}</span></summary>
<div class="menu-items wide">${disable}</div></details>`;
}

function linksTable(
  options: AdminPageOptions,
  frame: Frame,
  links: readonly Link[],
  slugs: ReadonlyMap<number, string>,
  q: string,
): SafeHtml {
  if (links.length === 0) return html`<p class="empty" data-state="no-links">No live link matches.</p>`;
  const rows = links.map((link) => {
    const short = shortUrl(options.origins, link);
    const slug = slugs.get(link.workspaceId) ?? '';
    return html`<tr data-link="${link.id}" data-code="${link.code}" data-disabled="${String(link.disabled !== null)}">
<td data-label="Short URL"><a class="truncate" href="${short}" rel="noopener noreferrer nofollow" title="${short}">${short}</a></td>
<td data-label="Target">${longUrlLink(link, true)}</td>
<td data-label="Workspace"><a href="/admin/workspaces?q=${encodeURIComponent(slug)}" data-workspace="${slug}">${slug}</a></td>
<td data-label="Clicks" class="num">${link.clicks.toLocaleString('en-US')}</td>
<td data-label="Status">${state(link)}</td>
<td class="actions">${actions(frame, link, q)}</td></tr>`;
  });
  return html`<div class="table-wrap"><table class="stacked"><caption class="visually-hidden">Links found</caption>
<thead><tr><th scope="col">Short URL</th><th scope="col">Target</th><th scope="col">Workspace</th><th scope="col" class="num">Clicks</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

async function results(options: AdminPageOptions, frame: Frame, q: string): Promise<SafeHtml> {
  if (q === '') {
    // Before anything is typed: the newest links of every workspace, each with its workspace.
    const newest = await options.store.newestLinks(NEWEST);
    const slugs = new Map(newest.map(({ workspace }) => [workspace.id, workspace.slug]));
    return html`<p class="hint" data-searched="none">The newest links of every workspace. Type a code, a short URL, a host or a target URL to find others.</p>
${linksTable(
  options,
  frame,
  newest.map(({ link }) => link),
  slugs,
  q,
)}`;
  }
  const search = linkSearchOf(q, options.isOwnHost);
  if (!search)
    return html`<p class="notice error" data-searched="nothing">That is no code, short URL, host or URL.</p>`;
  const links = await options.store.searchLinks(search, PAGE_ROWS);
  const slugs = await workspaceSlugs(
    options.store,
    links.map((link) => link.workspaceId),
  );
  const searched = searchedOf(q, search);
  return html`<p class="hint" data-searched="${searched}">Searched ${SEARCHED[searched]}: ${links.length === PAGE_ROWS ? `the first ${PAGE_ROWS} links` : `${links.length} found`}.</p>
${linksTable(options, frame, links, slugs, q)}`;
}

/** The links section of the console. */
export function linksSection(options: AdminPageOptions): Section {
  return {
    path: PATH,
    keep: ['q'],
    async render(user, fields, error) {
      const q = field(fields, 'q').trim();
      const frame = frameOf(user);
      return consolePage({
        title: 'Links',
        path: PATH,
        frame,
        done: { code: doneOf(field(fields, 'done')), messages: DONE },
        error,
        body: html`<section class="card" aria-labelledby="links-heading">
<h2 id="links-heading">Links of every workspace</h2>
${searchForm(PATH, q, 'Code, short URL, host or URL', 'evil.example')}
${await results(options, frame, q)}
</section>`,
      });
    },
  };
}

/** The links section's forms, each by the form's link `id`. */
export function linkActions(options: AdminPageOptions): Record<string, SectionAction> {
  const { takedowns } = options.abuse;
  const idOf = (body: unknown) => {
    const id = positiveInt(field(body, 'id'));
    if (id === undefined) throw new Refusal('314');
    return id;
  };
  return {
    async disable(body, actor) {
      await takedowns.disableLinkById(actor, idOf(body), field(body, 'reason'));
      return 'disabled';
    },
    async enable(body, actor) {
      await takedowns.enableLinkById(actor, idOf(body));
      return 'enabled';
    },
  };
}
