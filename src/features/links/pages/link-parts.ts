import { qrCodeUrl, shortUrl } from '../../../core/short-url.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { csrfField } from '../../../web/notices.ts';

/** Pieces the dashboard and the per-link page share. */

/**
 * The short URL with a copy button (assets/dashboard.js copies it and announces it; without script
 * the text can be selected). The button names the link it copies, for screen readers.
 */
export function copyableShortUrl(baseUrl: URL, code: string): SafeHtml {
  const id = `short-${code}`;
  const url = shortUrl(baseUrl, code);
  // Shown without its scheme, so the code is not the part cut off; copied whole.
  return html`<span class="copyable"><code id="${id}" title="${url}" data-copy="${url}">${url.replace(/^https?:\/\//, '')}</code>
<button type="button" class="secondary small" data-copy-from="${id}" aria-label="Copy the short URL ${url}">Copy</button></span>`;
}

/** Deleting asks first (dashboard.js); without script the form submits at once. */
export function deleteLinkForm(base: string, code: string, csrfToken: string, back: string): SafeHtml {
  return html`<form method="post" action="${base}/links/${code}/delete" class="inline" data-confirm="Delete ${code}? Its short URL stops working at once and the code is never given out again.">
${csrfField(csrfToken)}<input type="hidden" name="back" value="${back}"><button type="submit" class="danger small">Delete link</button></form>`;
}

/** The actions of one link, behind a menu button so that no destructive button sits on every row. */
export function linkActions(base: string, code: string, csrfToken: string, back: string): SafeHtml {
  return html`<details class="menu"><summary aria-label="Actions for ${code}">⋯</summary>
<div class="menu-items"><a class="button secondary small" href="${base}/links/${code}">Clicks and QR code</a>
${deleteLinkForm(base, code, csrfToken, back)}</div></details>`;
}

export function qrImage(baseUrl: URL, code: string): SafeHtml {
  return html`<figure class="qr"><img src="/qrcode/${code}.png?size=256" width="256" height="256" alt="QR code of ${shortUrl(baseUrl, code)}">
<figcaption><a class="button secondary small" href="/qrcode/${code}.png?size=1024" download="snip-${code}.png">Download the QR code (PNG, 1024 px)</a>
<span class="hint">Also at <code>${qrCodeUrl(baseUrl, code)}</code></span></figcaption></figure>`;
}
