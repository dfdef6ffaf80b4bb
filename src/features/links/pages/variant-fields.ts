import type { Link } from '../../../core/entities.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import type { VariantForm } from './variant-form.ts';

/**
 * The A/B test fieldset of the edit panel and of the create form (docs/api.md §20.x): four URL
 * rows, each with a weight slider showing its per cent, the sum shown (link-variants.js keeps it
 * current; the server checks it is 100), and the end in the workspace's zone. Usable without script.
 */

/** Which form the fieldset is in: its ids start with it. */
type FormId = 'edit' | 'create';

function row(form: VariantForm, i: number, id: FormId): SafeHtml {
  const { url, weight } = form.rows[i] ?? { url: '', weight: '0' };
  const which = `variant ${String.fromCharCode(65 + i)}`;
  const shown = weight === '' ? '0' : weight;
  return html`<li class="variant">
<label class="rule-url">URL of ${which} <input type="text" name="variant_url_${i}" inputmode="url" spellcheck="false" placeholder="https://example.com/page-${String.fromCharCode(97 + i)}" value="${url}"></label>
<label>Weight of ${which} <input type="range" id="${id}-variant-weight-${i}" name="variant_weight_${i}" min="0" max="100" step="1" value="${shown}" data-variant-weight aria-describedby="${id}-variant-percent-${i}">
<output id="${id}-variant-percent-${i}" for="${id}-variant-weight-${i}">${shown}%</output></label>
</li>`;
}

/** Clicks per variant while the test runs, beside its rows. */
function figures(link: Link, clicks: ReadonlyMap<number, number> | undefined): SafeHtml {
  const variants = link.test?.variants ?? [];
  if (variants.length === 0) return html``;
  return html`<table class="variant-figures"><caption>Clicks per variant since the test started</caption>
<thead><tr><th scope="col">Variant</th><th scope="col">URL</th><th scope="col">Weight</th><th scope="col">Clicks</th></tr></thead>
<tbody>${variants.map(
    (variant, i) =>
      html`<tr><th scope="row">${String.fromCharCode(65 + i)}</th><td class="url">${variant.url}</td><td>${variant.weight}%</td><td>${clicks?.get(i + 1) ?? 0}</td></tr>`,
  )}</tbody></table>`;
}

/** The rows, their total and the end; `open` unfolds the disclosure, `after` follows the end. */
export function variantFieldset(
  form: VariantForm,
  id: FormId,
  open: boolean,
  after: SafeHtml = html``,
): SafeHtml {
  const sum = form.rows.filter((r) => r.url !== '').reduce((total, r) => total + (Number(r.weight) || 0), 0);
  return html`<details class="more"${open ? html` open` : html``}><summary>A/B test</summary>
<fieldset class="variants stack">
<legend>A/B test</legend>
<input type="hidden" name="variants_shown" value="1">
<p class="help">Split the clicks no targeting rule took between 2 to 4 URLs by weight; a visitor keeps their URL all day. At the end, the URL with the most leads per click (then sales, then clicks) becomes the long URL. Empty rows are ignored; clear every URL to stop the test.</p>
<ol>${form.rows.map((_, i) => row(form, i, id))}</ol>
<p class="hint" data-variant-sum>Total: <output>${sum}%</output> (the weights of the rows with a URL add up to 100%)</p>
<label>Test ends (${form.zone}) <input type="datetime-local" name="test_ends_at" value="${form.endsAt}"></label>
${after}
</fieldset></details>`;
}

/** The edit panel's: open while the link has a test, with the clicks per variant. */
export function variantFields(
  form: VariantForm,
  link: Link,
  clicks: ReadonlyMap<number, number> | undefined,
): SafeHtml {
  const open = link.test !== null || form.rows.some((r) => r.url !== '');
  return variantFieldset(form, 'edit', open, figures(link, clicks));
}
