import type { Link } from '../../../core/entities.ts';
import { domainQuery, type LinkOrigins, shortUrl } from '../../../core/short-url.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { csrfField } from '../../../web/notices.ts';

/** Pieces the dashboard and the per-link page share. */

/**
 * The short URL with a copy button (assets/dashboard.js copies it and announces it; without script
 * the text can be selected). The button names the link it copies, for screen readers.
 */
export function copyableShortUrl(origins: LinkOrigins, link: Pick<Link, 'domainId' | 'code'>): SafeHtml {
  // Unique on a page where one code lives on several domains; the default domain's as before.
  const id = link.domainId === 0 ? `short-${link.code}` : `short-${link.domainId}-${link.code}`;
  const url = shortUrl(origins, link);
  // Shown without its scheme, so the code is not the part cut off; copied whole.
  return html`<span class="copyable"><code id="${id}" title="${url}" data-copy="${url}">${url.replace(/^https?:\/\//, '')}</code>
<button type="button" class="secondary small" data-copy-from="${id}" aria-label="Copy the short URL ${url}">Copy</button></span>`;
}

/** Deleting asks first (dashboard.js); without script the form submits at once. */
export function deleteLinkForm(action: string, code: string, csrfToken: string, back: string): SafeHtml {
  return html`<form method="post" action="${action}" class="inline" data-confirm="Delete ${code}? Its short URL stops working at once and the code is never given out again.">
${csrfField(csrfToken)}<input type="hidden" name="back" value="${back}"><button type="submit" class="danger small">Delete link</button></form>`;
}

/** The actions of one link, behind a menu button so that no destructive button sits on every row. */
export function linkActions(
  page: string,
  deleteAction: string,
  code: string,
  csrfToken: string,
  back: string,
): SafeHtml {
  return html`<details class="menu"><summary aria-label="Actions for ${code}">⋯</summary>
<div class="menu-items"><a class="button secondary small" href="${page}">Clicks and QR code</a>
${deleteLinkForm(deleteAction, code, csrfToken, back)}</div></details>`;
}

/** A page of a link under the workspace's address: `rest` after its code, then `?domain=` off the default domain. */
export function linkPath(
  base: string,
  origins: LinkOrigins,
  link: Pick<Link, 'domainId' | 'code'>,
  rest = '',
): string {
  return `${base}/links/${link.code}${rest}${domainQuery(origins, link)}`;
}
