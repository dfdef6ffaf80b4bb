import type { Link } from '../../../core/entities.ts';
import { domainQuery, type LinkOrigins, shortUrl } from '../../../core/short-url.ts';
import { html, raw, type SafeHtml } from '../../../web/html.ts';
import { csrfField } from '../../../web/notices.ts';

/** Pieces the dashboard and the per-link page share. */

const icon = (name: string, path: string) =>
  raw(
    `<svg class="icon icon-${name}" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${path}"/></svg>`,
  );

/** Two sheets, one over the other; a tick once copied (dashboard.js swaps them). */
export const COPY_ICONS = raw(
  icon(
    'copy',
    'M9 9h10a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H9a1 1 0 0 1-1-1V10a1 1 0 0 1 1-1zM5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1',
  ).html + icon('done', 'M5 12.5l4.5 4.5L19 7.5').html,
);

/** Three dots: the button of a menu of actions. */
export const MORE_ICON = raw(
  '<svg class="icon icon-more" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="5" cy="12" r="1.8"/><circle cx="12" cy="12" r="1.8"/><circle cx="19" cy="12" r="1.8"/></svg>',
);

type Addressed = Pick<Link, 'domainId' | 'code'>;

/**
 * The id of the element a copy button copies from: unique where one code lives on several domains;
 * `prefix` tells apart two copies of one link on a page (the one just created, and its row).
 */
export function shortId(link: Addressed, prefix = 'short'): string {
  return link.domainId === 0 ? `${prefix}-${link.code}` : `${prefix}-${link.domainId}-${link.code}`;
}

/**
 * The short URL as people read it: the host muted, the code whole (never the part cut off), no
 * scheme; `data-copy` holds the whole URL that is copied.
 */
export function shortUrlText(origins: LinkOrigins, link: Addressed, prefix = 'short'): SafeHtml {
  const url = shortUrl(origins, link);
  const host = url.replace(/^https?:\/\//, '').slice(0, -link.code.length);
  return html`<code class="short-url" id="${shortId(link, prefix)}" title="${url}" data-copy="${url}"><span class="short-host">${host}</span><span class="short-code">${link.code}</span></code>`;
}

/** An icon button that copies the short URL (assets/dashboard.js), named for screen readers. */
export function copyButton(origins: LinkOrigins, link: Addressed, label = false, prefix = 'short'): SafeHtml {
  const url = shortUrl(origins, link);
  return html`<button type="button" class="icon-button copy secondary${label ? ' labelled' : ''}" data-copy-from="${shortId(link, prefix)}" aria-label="Copy ${url}" title="Copy">${COPY_ICONS}${label ? html`<span class="copy-label">Copy</span>` : html``}</button>`;
}

/**
 * The short URL with a copy button (assets/dashboard.js copies it and announces it; without script
 * the text can be selected). The button names the link it copies, for screen readers.
 */
export function copyableShortUrl(origins: LinkOrigins, link: Addressed, prefix = 'short'): SafeHtml {
  return html`<span class="copyable">${shortUrlText(origins, link, prefix)}${copyButton(origins, link, true, prefix)}</span>`;
}

/** Deleting asks first, in a dialog (dashboard.js); without script the form submits at once. */
export function deleteLinkForm(action: string, code: string, csrfToken: string, back: string): SafeHtml {
  return html`<form method="post" action="${action}" class="inline" data-confirm="Delete ${code}? Its short URL stops working at once and the code is never given out again." data-confirm-title="Delete this link?">
${csrfField(csrfToken)}<input type="hidden" name="back" value="${back}"><button type="submit" class="danger small">Delete link</button></form>`;
}

/** A badge on an archived link, wherever it is shown; nothing on the others. */
export function archivedBadge(link: Pick<Link, 'archived'>): SafeHtml {
  return link.archived
    ? html`<span class="badge" data-badge="archived" title="Hidden from the list of links; it still redirects and counts">Archived</span>`
    : html``;
}

/**
 * Archives the link, or shows an archived one again: no question asked, since an archived link
 * keeps redirecting and counting and the same button undoes it.
 */
export function archiveLinkForm(
  action: string,
  archived: boolean,
  csrfToken: string,
  back: string,
  style = 'ghost small',
): SafeHtml {
  return html`<form method="post" action="${action}" class="inline">
${csrfField(csrfToken)}<input type="hidden" name="back" value="${back}"><input type="hidden" name="archived" value="${archived ? 'false' : 'true'}"><button type="submit" class="${style}">${archived ? 'Unarchive' : 'Archive'}</button></form>`;
}

/**
 * A menu of actions in a popover: drawn in the top layer, so no scroll box or card clips it;
 * dashboard.js sets it beside its button. Without script it opens in the middle of the screen.
 */
export function popoverMenu(id: string, label: string, items: SafeHtml, wide = false): SafeHtml {
  return html`<button type="button" class="icon-button menu-button" popovertarget="${id}" aria-label="${label}" title="Actions">${MORE_ICON}</button>
<div class="menu-pop menu-items${wide ? ' wide' : ''}" id="${id}" popover data-menu>${items}</div>`;
}

export interface LinkActionsView {
  /** The link's page, its stats page, and its archive and delete forms' addresses. */
  page: string;
  stats: string;
  archiveAction: string;
  deleteAction: string;
  /** The link page with its edit panel open, and with its QR designer open. */
  edit: string;
  qr: string;
  /** The create form filled in with a copy of the link; absent for one who may not create links. */
  duplicate?: string;
  link: Addressed & Pick<Link, 'archived'>;
  /** How it reads, e.g. snip.test/launch. */
  name: string;
  csrfToken: string;
  back: string;
  /** Whether the user may archive and delete it. */
  canEdit: boolean;
}

/**
 * The actions of one link, behind a menu button so that no destructive button sits on every row:
 * copy its short URL, edit it, its QR code, a copy of it, its page and stats, archive, delete.
 */
export function linkActions(view: LinkActionsView): SafeHtml {
  const id = `menu-${shortId(view.link)}`;
  const item = (href: string, label: string, action: string) =>
    html`<a class="button ghost small" href="${href}" data-action="${action}">${label}</a>`;
  return popoverMenu(
    id,
    `Actions for ${view.name}`,
    html`<button type="button" class="ghost small" data-copy-from="${shortId(view.link)}" data-action="copy">Copy short URL</button>
${view.canEdit ? item(view.edit, 'Edit', 'edit') : html``}${item(view.qr, 'QR code', 'qr')}${view.duplicate ? item(view.duplicate, 'Duplicate', 'duplicate') : html``}
${item(view.page, "Open the link's page", 'open')}${item(view.stats, 'Visit stats', 'stats')}
${view.canEdit ? html`${archiveLinkForm(view.archiveAction, view.link.archived, view.csrfToken, view.back)}${deleteLinkForm(view.deleteAction, view.link.code, view.csrfToken, view.back)}` : html``}`,
  );
}

/** The link page with `flag` in its address (after `?domain=` when it has one), then `#fragment`. */
export function withFlag(pagePath: string, flag: string, fragment = ''): string {
  return `${pagePath}${pagePath.includes('?') ? '&' : '?'}${flag}${fragment ? `#${fragment}` : ''}`;
}

/** A page of a link under the workspace's address: `rest` after its code, then `?domain=` off the default domain. */
export function linkPath(base: string, origins: LinkOrigins, link: Addressed, rest = ''): string {
  return `${base}/links/${link.code}${rest}${domainQuery(origins, link)}`;
}
