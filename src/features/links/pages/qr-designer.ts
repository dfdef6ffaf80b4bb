import type { Link } from '../../../core/entities.ts';
import {
  MIN_QR_CONTRAST,
  QR_DEFAULT_LOOK,
  QR_ECC_LEVELS,
  QR_MARGIN,
  QR_SIZE,
  type QrEcc,
} from '../../../core/qr-design.ts';
import { domainQuery, type LinkOrigins, qrCodeUrl, shortUrl } from '../../../core/short-url.ts';
import { html, type SafeHtml } from '../../../web/html.ts';

/**
 * The link page's QR code and its designer (docs/api.md §16): size, quiet zone, colours and error
 * correction, previewed live and downloaded as PNG or SVG (assets/qr-designer.js writes the image
 * addresses; the image route draws them). Without script the default design downloads as is.
 */

/** The size downloads start at: print wants more pixels than the page shows. */
const DOWNLOAD_SIZE = 1024;

const ECC_NAMES: Record<QrEcc, string> = {
  L: 'Low: 7% may be damaged',
  M: 'Medium: 15%',
  Q: 'Quartile: 25%',
  H: 'High: 30%, room for a logo',
};

function downloads(file: (format: string, rest: string) => string, code: string): SafeHtml {
  return html`<a class="button secondary small" href="${file('png', `size=${DOWNLOAD_SIZE}`)}" download="snip-${code}.png" data-qr-download="png">Download the QR code (PNG, <span data-qr-size>${DOWNLOAD_SIZE}</span> px)</a>
<a class="button secondary small" href="${file('svg', `size=${DOWNLOAD_SIZE}`)}" download="snip-${code}.svg" data-qr-download="svg">Download it as SVG</a>`;
}

function numberField(
  name: string,
  label: string,
  hint: string,
  range: { min: number; max: number },
  value: number,
) {
  return html`<label>${label} <span class="hint">${hint}</span>
<input type="number" name="qr_${name}" min="${range.min}" max="${range.max}" step="1" inputmode="numeric" required value="${value}" aria-describedby="qr-${name}-error"></label>
<p class="field-error" id="qr-${name}-error" data-qr-error="${name}" hidden>Between ${range.min} and ${range.max}, a whole number; until then the image keeps the last good value.</p>`;
}

function designer(base: string, domain: string): SafeHtml {
  const look = QR_DEFAULT_LOOK;
  return html`<fieldset class="qr-designer" data-qr-designer data-qr-base="${base}" data-qr-domain="${domain}" data-min-contrast="${MIN_QR_CONTRAST}">
<legend>Design</legend>
<div class="qr-grid">
<div>${numberField('size', 'Size', `pixels, ${QR_SIZE.min}–${QR_SIZE.max}`, QR_SIZE, DOWNLOAD_SIZE)}</div>
<div>${numberField('margin', 'Margin', 'modules of blank border', QR_MARGIN, look.margin)}</div>
<label>Foreground <input type="color" name="qr_fg" value="${look.fg}"></label>
<label>Background <input type="color" name="qr_bg" value="${look.bg}"></label>
<label class="qr-ecc">Error correction <select name="qr_ecc">${QR_ECC_LEVELS.map(
    (level) =>
      html`<option value="${level}"${level === look.ecc ? html` selected` : html``}>${level} — ${ECC_NAMES[level]}</option>`,
  )}</select></label>
</div>
<div aria-live="polite"><p class="field-error" data-contrast-warning hidden></p></div>
<p class="hint">The preview above follows these choices; the downloads use them too. Every code holds the short URL with <code>?qr=1</code>, so that scans are counted apart from clicks.</p>
</fieldset>`;
}

/** The code as the page shows it, its downloads, and the designer. */
export function qrSection(origins: LinkOrigins, link: Pick<Link, 'domainId' | 'code'>): SafeHtml {
  // Drawn here (`?domain=` names the link's domain), so the page works before its domain's DNS does.
  const query = domainQuery(origins, link);
  const base = `/qrcode/${link.code}`;
  const file = (format: string, rest: string) =>
    `${base}.${format}${query === '' ? '?' : `${query}&`}${rest}`;
  const domain = query === '' ? '' : origins.hostOf(link.domainId);
  return html`<figure class="qr"><img src="${file('png', 'size=256')}" width="256" height="256" alt="QR code of ${shortUrl(origins, link)}" data-qr-preview>
<figcaption>${downloads(file, link.code)}
<span class="hint">Also at <code>${qrCodeUrl(origins, link)}</code></span></figcaption></figure>
${designer(base, domain)}`;
}
