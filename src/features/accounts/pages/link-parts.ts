import type { Link } from '../../../core/entities.ts';
import { qrCodeUrl, shortUrl } from '../../../core/short-url.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { csrfField } from '../../../web/notices.ts';

/** Pieces the dashboard and the per-link page share. */

export function when(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The short URL as text with a copy button (assets/dashboard.js; without script the text can be selected). */
export function copyableShortUrl(baseUrl: URL, code: string): SafeHtml {
  const id = `short-${code}`;
  return html`<span class="copyable"><code id="${id}">${shortUrl(baseUrl, code)}</code>
<button type="button" class="secondary small" data-copy-from="${id}">Copy</button></span>`;
}

/** The target, as a link that sends no referrer and no opener; only http(s) URLs are ever stored. */
export function longUrlLink(link: Link): SafeHtml {
  return html`<a href="${link.longUrl}" rel="noopener noreferrer nofollow" class="long-url">${link.longUrl}</a>`;
}

export function deleteLinkForm(code: string, csrfToken: string, back: string): SafeHtml {
  return html`<form method="post" action="/dashboard/links/${code}/delete" class="inline" data-confirm="Delete ${code}? Its short URL stops working at once and the code is never given out again.">
${csrfField(csrfToken)}<input type="hidden" name="back" value="${back}"><button type="submit" class="danger small">Delete</button></form>`;
}

export function qrImage(baseUrl: URL, code: string): SafeHtml {
  return html`<figure class="qr"><img src="/qrcode/${code}.png?size=256" width="256" height="256" alt="QR code of ${shortUrl(baseUrl, code)}">
<figcaption><a href="/qrcode/${code}.png?size=1024" download="snip-${code}.png">Download the QR code (PNG, 1024 px)</a>
<span class="hint">Also at <code>${qrCodeUrl(baseUrl, code)}</code></span></figcaption></figure>`;
}

/** The chart's place; assets/dashboard.js draws into it from the page data. */
export function chartBox(label: string, total: number): SafeHtml {
  return html`<div class="chart-box"><div id="chart" class="chart" role="img" aria-label="${label}"></div>
<p class="hint">${label}: ${total} click${total === 1 ? '' : 's'} in all.</p></div>`;
}
