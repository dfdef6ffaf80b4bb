import type { Group, Link } from '../../../core/entities.ts';
import { DEFAULT_DOMAIN_ID } from '../../../core/link-key.ts';
import { type LinkOrigins, shortUrl } from '../../../core/short-url.ts';
import { html, raw, type SafeHtml } from '../../../web/html.ts';
import { day, longUrlLink, when } from '../../../web/page-parts.ts';
import type { LinkFilter } from './dashboard.ts';
import { brokenBadge } from './health-parts.ts';
import { archivedBadge, copyButton, linkActions, linkPath, shortUrlText, withFlag } from './link-parts.ts';
import { dashboardHref } from './links-href.ts';
import { ruleBadges } from './rule-badges.ts';

/**
 * One link of the dashboard's list, around its short link: the host muted and the code whole, a
 * copy button, the title and the target under it, its group and tags as chips that filter the list.
 * A click anywhere on the row that is not on a control opens the link's page (dashboard.js); the
 * code and the title are real links to it for the keyboard and without script.
 */

export interface RowContext {
  origins: LinkOrigins;
  /** The workspace's address, /w/<slug>. */
  base: string;
  filter: LinkFilter;
  groups: ReadonlyMap<number, Group>;
  /** Each listed link's tags. */
  tags: ReadonlyMap<number, readonly string[]>;
  canEdit: boolean;
  /** Whether the user may create links: the menu then offers a copy of each. */
  canCreate?: boolean;
  csrfToken: string;
  /** Where a delete goes back to: this very list. */
  back: string;
  /** Expired or not is judged once for the whole page. */
  now: number;
  /** The workspace's time zone, which dates are shown in (docs/api.md §18); UTC when untold. */
  zone?: string;
}

/** Bars of a chart: what the figure beside it counts, on a phone where no column heading says it. */
const CLICKS_ICON = raw(
  '<svg class="icon icon-clicks" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 20v-7M12 20V5M18 20v-10"/></svg>',
);

/** How the short URL reads, without its scheme: snip.test/launch. */
export const shortName = (origins: LinkOrigins, link: Link) =>
  shortUrl(origins, link).replace(/^https?:\/\//, '');

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long ago, as people say it at a glance: just now, 12 min, 3 h, 5 d; a date past six weeks. */
export function ago(at: Date, now: number, zone?: string): string {
  const past = Math.max(0, now - at.getTime());
  if (past < MINUTE) return 'just now';
  if (past < HOUR) return `${Math.floor(past / MINUTE)} min ago`;
  if (past < DAY) return `${Math.floor(past / HOUR)} h ago`;
  if (past < 42 * DAY) return `${Math.floor(past / DAY)} d ago`;
  return day(at, zone);
}

/** The latest click: how long ago, the exact time in the workspace's zone on hover; Never before the first. */
function lastClickCell(context: RowContext, link: Link): SafeHtml {
  const at = link.lastClickedAt;
  const shown = at
    ? html`<time datetime="${at.toISOString()}" title="${when(at, context.zone)}">${ago(at, context.now, context.zone)}</time>`
    : html`<span class="never">Never</span>`;
  return html`<td class="last-click"><span class="visually-hidden">Last click: </span>${shown}</td>`;
}

/** The address of the create form filled in with a copy of the link (docs/adr/040). */
function duplicateHref(context: RowContext, link: Link): string | undefined {
  if (!context.canCreate) return undefined;
  const on =
    link.domainId === DEFAULT_DOMAIN_ID
      ? ''
      : `&duplicate_domain=${encodeURIComponent(context.origins.hostOf(link.domainId))}`;
  return `${context.base}?duplicate=${encodeURIComponent(link.code)}${on}#create`;
}

/** A link's group and tags as chips that filter the list, then its rule badges; nothing when it has none. */
export function linkChips(
  base: string,
  filter: LinkFilter,
  link: { group: Group | undefined; tags: readonly string[]; badges: SafeHtml },
): SafeHtml {
  const { group, tags, badges } = link;
  const groupChip = group
    ? html`<a class="pill group-pill" href="${dashboardHref(base, filter, { groupId: group.id })}" title="Only the links of the group ${group.name}"><span class="visually-hidden">Group: </span>${group.name}</a>`
    : html``;
  const tagChips = tags.map(
    (tag) =>
      html`<a class="pill tag-pill" href="${dashboardHref(base, filter, { tag })}" title="Only the links tagged ${tag}"><span class="visually-hidden">Tag: </span>${tag}</a>`,
  );
  if (!group && tags.length === 0 && badges.html === '') return html``;
  return html`<div class="row-chips">${groupChip}${tagChips}${badges}</div>`;
}

function chips(context: RowContext, link: Link, tags: readonly string[]): SafeHtml {
  const group = link.groupId === null ? undefined : context.groups.get(link.groupId);
  return linkChips(context.base, context.filter, {
    group,
    tags,
    badges: html`${brokenBadge(link)}${archivedBadge(link)}${ruleBadges(link, context.now, context.zone)}`,
  });
}

/** The box that ticks the link for a bulk change, with what that change reads of it: its domain and tags. */
function selectBox(
  context: RowContext,
  link: Link,
  name: string,
  domain: string,
  tags: readonly string[],
): SafeHtml {
  if (!context.canEdit) return html``;
  return html`<td class="pick"><input type="checkbox" data-pick value="${link.code}" data-domain="${domain}" data-tags="${JSON.stringify(tags)}" aria-label="Select ${name}"></td>`;
}

export function linkRow(context: RowContext, link: Link): SafeHtml {
  const { base, origins } = context;
  const page = linkPath(base, origins, link);
  const name = shortName(origins, link);
  const tags = context.tags.get(link.id) ?? [];
  const domain = link.domainId === DEFAULT_DOMAIN_ID ? '' : origins.hostOf(link.domainId);
  const actions = linkActions({
    page,
    stats: linkPath(base, origins, link, '/stats'),
    archiveAction: linkPath(base, origins, link, '/archive'),
    deleteAction: linkPath(base, origins, link, '/delete'),
    edit: withFlag(page, 'edit', 'edit'),
    qr: withFlag(page, 'qr', 'qr'),
    duplicate: duplicateHref(context, link),
    link,
    name,
    csrfToken: context.csrfToken,
    back: context.back,
    canEdit: context.canEdit,
  });
  const title = link.title
    ? html`<a class="title" href="${page}" title="${link.title}">${link.title}</a>`
    : html``;
  return html`<tr data-code="${link.code}">
${selectBox(context, link, name, domain, tags)}<td class="link-cell"><div class="link-box">
<div class="short-line"><a class="short-link" href="${page}">${shortUrlText(origins, link)}</a>${copyButton(origins, link)}</div>
<div class="sub-line">${title}${longUrlLink(link)}</div>
${chips(context, link, tags)}</div></td>
<td class="num clicks" data-clicks="${link.clicks}">${CLICKS_ICON}${link.clicks.toLocaleString('en-US')}<span class="visually-hidden"> ${link.clicks === 1 ? 'click' : 'clicks'}</span></td>
${lastClickCell(context, link)}
<td class="created"><time datetime="${link.createdAt.toISOString()}" title="${when(link.createdAt, context.zone)}">${day(link.createdAt, context.zone)}</time></td>
<td class="actions">${actions}</td>
</tr>`;
}
