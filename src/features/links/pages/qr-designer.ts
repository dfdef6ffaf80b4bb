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
  return html`<a class="button secondary small" href="${file('png', `size=${DOWNLOAD_SIZE}`)}" download="snip-${code}.png" data-qr-download="png">PNG, <span data-qr-size>${DOWNLOAD_SIZE}</span> px</a>
<a class="button secondary small" href="${file('svg', `size=${DOWNLOAD_SIZE}`)}" download="snip-${code}.svg" data-qr-download="svg">SVG</a>`;
}

function numberField(
  name: string,
  label: string,
  hint: string,
  range: { min: number; max: number },
  value: number,
) {
  return html`<label>${label}
<input type="number" name="qr_${name}" min="${range.min}" max="${range.max}" step="1" inputmode="numeric" required value="${value}" aria-describedby="qr-${name}-hint qr-${name}-error"></label>
<p class="help" id="qr-${name}-hint">${hint}</p>
<p class="field-error" id="qr-${name}-error" data-qr-error="${name}" hidden>Between ${range.min} and ${range.max}, a whole number; until then the image keeps the last good value.</p>`;
}

function designer(base: string, domain: string, address: string, open: boolean): SafeHtml {
  const look = QR_DEFAULT_LOOK;
  return html`<details class="more qr-design"${open ? html` open` : html``}><summary>Size, colours and margin</summary><fieldset class="qr-designer" data-qr-designer data-qr-base="${base}" data-qr-domain="${domain}" data-min-contrast="${MIN_QR_CONTRAST}">
<legend class="visually-hidden">Design of the QR code</legend>
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
<p class="help">The preview and the downloads follow these choices. Scans are counted apart from clicks. The image is also at <code>${address}</code>.</p>
</fieldset></details>`;
}

/** The code as the page shows it, its downloads, and the designer (open when `designing`). */
export function qrSection(
  origins: LinkOrigins,
  link: Pick<Link, 'domainId' | 'code'>,
  designing = false,
): SafeHtml {
  // Drawn here (`?domain=` names the link's domain), so the page works before its domain's DNS does.
  const query = domainQuery(origins, link);
  const base = `/qrcode/${link.code}`;
  const file = (format: string, rest: string) =>
    `${base}.${format}${query === '' ? '?' : `${query}&`}${rest}`;
  const domain = query === '' ? '' : origins.hostOf(link.domainId);
  return html`<figure class="qr"><img src="${file('png', 'size=256')}" width="256" height="256" alt="QR code of ${shortUrl(origins, link)}" data-qr-preview>
<figcaption><span class="downloads"><span class="hint">Download</span> ${downloads(file, link.code)}</span></figcaption></figure>
${designer(base, domain, qrCodeUrl(origins, link), designing)}`;
}
