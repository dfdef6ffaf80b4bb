import {
  MAX_PREVIEW_DESCRIPTION,
  MAX_PREVIEW_TITLE,
  MAX_UTM_VALUE,
  UTM_KEYS,
  type UtmKey,
  withUtm,
} from '../../../core/link-campaign.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import type { PageError } from '../../../web/notices.ts';
import {
  CAMPAIGN_MARKER,
  type CampaignFault,
  type CampaignForm,
  changedUtm,
  type Tracking,
  type UtmValues,
} from './campaign-form.ts';
import { type CardOptions, previewCard } from './preview-card.ts';

/**
 * The campaign fields of the create and edit forms (docs/api.md §16): a UTM builder with the final
 * URL previewed (assets/link-fields.js updates it as one types, by the rules of core/link-campaign.ts),
 * query forwarding, and the social preview with its card. The server writes the UTM values in.
 */

export interface CampaignFieldsView {
  /** `create` or `edit`: ids on the page start with it. */
  id: string;
  form: CampaignForm;
  /** Where the UTM fields start: nothing on a new link, the current URL's values on an edit. */
  base: UtmValues;
  /** The long URL the form holds, for the first preview of the final URL. */
  url: string;
  card: CardOptions;
  /** A refusal about these fields, shown next to them. */
  fault?: CampaignFault;
  error?: PageError;
}

const UTM_LABELS: Record<UtmKey, [string, string]> = {
  source: ['Source', 'newsletter'],
  medium: ['Medium', 'email'],
  campaign: ['Campaign', 'spring-sale'],
  term: ['Term', 'running shoes'],
  content: ['Content', 'header-button'],
};

/** The URL with the changed UTM fields written in, as the service will write them. */
export function finalUrl(url: string, sent: UtmValues, base: UtmValues): string {
  const utm = changedUtm(sent, base);
  if (!utm || url.trim() === '') return url.trim();
  const trimmed = Object.fromEntries(Object.entries(utm).map(([key, value]) => [key, value.trim()]));
  return withUtm(url.trim(), trimmed);
}

function fieldError(id: string, error: PageError | undefined): SafeHtml {
  if (!error) return html``;
  return html`<p class="field-error" id="${id}" role="alert" data-error="${error.code}">${error.message}</p>`;
}

function utmInput(view: CampaignFieldsView, key: UtmKey, describedBy: string): SafeHtml {
  const [label, hint] = UTM_LABELS[key];
  return html`<label>${label} <span class="visually-hidden">(utm_${key})</span>
<input type="text" name="utm_${key}" maxlength="${MAX_UTM_VALUE}" autocomplete="off" spellcheck="false" placeholder="${hint}" data-utm-key="${key}" data-base="${view.base[key]}" value="${view.form.utm[key]}"${describedBy ? html` aria-describedby="${describedBy}"` : html``}></label>`;
}

/** The UTM builder and query forwarding. */
export function utmFieldset(view: CampaignFieldsView): SafeHtml {
  const errorId = view.fault === 'utm' && view.error ? `${view.id}-utm-error` : '';
  const editing = view.id === 'edit';
  const final = finalUrl(view.url, view.form.utm, view.base);
  return html`<fieldset class="campaign" data-utm>
<legend>Campaign parameters (UTM)</legend>
<input type="hidden" name="${CAMPAIGN_MARKER}" value="1">
<p class="help">Tag the long URL so your analytics tool sees where visits come from.${editing ? ' Empty a field to remove its parameter.' : ''}</p>
${fieldError(errorId, errorId ? view.error : undefined)}
<div class="utm-grid">${UTM_KEYS.map((key) => utmInput(view, key, errorId))}</div>
<p class="final-url"><span class="hint">The long URL will be</span> <code data-final-url data-empty="the long URL, once typed">${final || 'the long URL, once typed'}</code></p>
<label class="check"><input type="checkbox" name="forward_query" value="1"${view.form.forwardQuery ? html` checked` : html``}> <span>Pass the short link's query on to the target <span class="help">(<code>?ref=mail</code> reaches the target too)</span></span></label>
${trackingField(view.id, view.form.tracking)}
</fieldset>`;
}

/** Conversion tracking (docs/api.md §20): the workspace's default, or the link's own choice. */
function trackingField(id: string, tracking: Tracking): SafeHtml {
  const option = (value: Tracking, label: string) =>
    value === tracking
      ? html`<option value="${value}" selected>${label}</option>`
      : html`<option value="${value}">${label}</option>`;
  return html`<label>Conversion tracking <select name="track_conversions" data-tracking aria-describedby="${id}-tracking-help">${option('', 'As the workspace')}${option('on', 'On')}${option('off', 'Off')}</select></label>
<p class="help" id="${id}-tracking-help">On: each click gets a random <code>snip_id</code> in the target's query, for the leads and sales your site reports.</p>`;
}

/** The social preview's fields and the card they make. */
export function previewFieldset(view: CampaignFieldsView): SafeHtml {
  const errorId = view.fault === 'preview' && view.error ? `${view.id}-preview-error` : '';
  const describedBy = (own: string) => html` aria-describedby="${[own, errorId].filter(Boolean).join(' ')}"`;
  const { preview } = view.form;
  return html`<fieldset class="preview-fields" data-preview>
<legend>Link preview in chats and social networks</legend>
<p class="help">How the link looks when shared in chats and social posts. Leave empty to use the target page's own.</p>
${fieldError(errorId, errorId ? view.error : undefined)}
<div class="preview-grid">
<div class="stack">
<label>Title
  <input type="text" name="preview_title" maxlength="${MAX_PREVIEW_TITLE}" autocomplete="off" value="${preview.title}"${errorId ? describedBy('') : html``}></label>
<label>Description
  <textarea name="preview_description" rows="3" maxlength="${MAX_PREVIEW_DESCRIPTION}"${errorId ? describedBy('') : html``}>${preview.description}</textarea></label>
<label>Image URL
  <input type="url" name="preview_image" inputmode="url" spellcheck="false" autocomplete="off" maxlength="2048" pattern="https://.+" placeholder="https://example.com/card.png" title="An https address, such as https://example.com/card.png" value="${preview.image}"${describedBy(`${view.id}-image-error`)}>
  <span class="help">An https picture, ideally 1200 × 630 px.</span></label>
<p class="field-error" id="${view.id}-image-error" data-image-error hidden>The image address must start with https://.</p>
</div>
${previewCard(preview, view.card)}
</div>
</fieldset>`;
}

/** Whether the UTM fields or forwarding hold anything, so that a form shows them open. */
export function namesUtm(form: CampaignForm | undefined): boolean {
  return !!form && (form.forwardQuery || UTM_KEYS.some((key) => form.utm[key].trim() !== ''));
}

/** Whether the preview fields hold anything, so that a form shows them open. */
export function namesPreview(form: CampaignForm | undefined): boolean {
  if (!form) return false;
  const { preview } = form;
  return preview.title.trim() !== '' || preview.description.trim() !== '' || preview.image !== '';
}
