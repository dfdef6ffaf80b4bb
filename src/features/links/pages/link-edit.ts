import { SLUG_MAX_LENGTH, SLUG_MIN_LENGTH } from '../../../core/short-code.ts';
import { type LinkOrigins, shortUrl } from '../../../core/short-url.ts';
import { type Frame, here, zoneHere } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { csrfField, errorNotice, type PageError } from '../../../web/notices.ts';
import { namesPreview, namesUtm, previewFieldset, utmFieldset } from './campaign-fields.ts';
import { type CampaignFault, campaignFormOf, utmValuesOf } from './campaign-form.ts';
import type { LinkDetail, LinkForm } from './dashboard.ts';
import { fieldError, formError, invalidWhen, type LinkRefusal, linkRefusal } from './link-field-errors.ts';
import { linkPath } from './link-parts.ts';
import { groupOptions } from './links-table.ts';
import { ruleFields } from './rule-fields.ts';
import { ruleFormOf } from './rule-form.ts';
import { variantFields } from './variant-fields.ts';
import { variantFormOf } from './variant-form.ts';

/** What the link page shows: the link, and a refused change's form and reason. */
export interface LinkView {
  frame: Frame;
  origins: LinkOrigins;
  detail: LinkDetail;
  done?: string;
  /** The change just saved gave the link a new target. */
  newTarget?: boolean;
  /** The edit panel is open: asked for, or a change was refused. */
  editing?: boolean;
  /** The QR designer is open (`?qr`, the list's QR action). */
  designing?: boolean;
  /** A refused change: the form shows the reason and what was sent. */
  error?: PageError;
  form?: LinkForm;
  /** The fields a refusal is about, when it is about the campaign fields: shown next to them. */
  fault?: CampaignFault;
  /** The refusal is about the short code's shape: shown next to that field. */
  slugFault?: boolean;
}

/** The link page's edit panel: its target, title, group, rules and campaign fields, checked as the API checks them. */

export const cardOptions = (view: LinkView) => ({
  host: view.origins.hostOf(view.detail.link.domainId),
  fallbackTitle: view.detail.link.title || shortUrl(view.origins, view.detail.link),
});

/** The UTM builder and the social preview, open when the link uses them or a refusal is about them. */
function campaignEdit(view: LinkView, form: LinkForm, error: PageError | undefined): SafeHtml {
  const { link } = view.detail;
  const fields = {
    id: 'edit',
    form: form.campaign ?? campaignFormOf(link),
    base: utmValuesOf(link.longUrl),
    url: form.url,
    card: cardOptions(view),
    fault: view.fault,
    error,
  };
  const open = (yes: boolean) => (yes ? html` open` : html``);
  return html`<details class="more"${open(view.fault === 'utm' || namesUtm(fields.form))}><summary>Campaign parameters (UTM) and query forwarding</summary>
  <div class="stack">${utmFieldset(fields)}</div></details>
  <details class="more"${open(view.fault === 'preview' || namesPreview(fields.form))}><summary>Link preview in chats</summary>
  <div class="stack">${previewFieldset(fields)}</div></details>`;
}

function formOf(view: LinkView): LinkForm {
  const { link } = view.detail;
  return (
    view.form ?? {
      url: link.longUrl,
      title: link.title,
      group: link.groupId === null ? '' : String(link.groupId),
      rules: ruleFormOf(link, zoneHere(view.frame)),
      campaign: campaignFormOf(link),
      tags: view.detail.tags.join(', '),
      slug: link.code,
      test: variantFormOf(link, zoneHere(view.frame)),
    }
  );
}

/** Shapes the browser checks before sending; the server checks again (300). */
const SLUG_INPUT_PATTERN = `[A-Za-z0-9_\\-]{${SLUG_MIN_LENGTH},${SLUG_MAX_LENGTH}}`;

/** The short code field; the codes the link had before still lead to it, and are named under it. */
function codeField(view: LinkView, form: LinkForm, refusal: LinkRefusal | undefined): SafeHtml {
  const { aliases } = view.detail;
  const invalid = refusal?.field === 'slug';
  const former =
    aliases.length === 0
      ? html``
      : html` Earlier codes that still lead here: ${aliases.map((code, i) => html`${i === 0 ? '' : ', '}<code>${code}</code>`)}.`;
  return html`<div class="field slug"><label>Short code <input type="text" name="slug" minlength="${SLUG_MIN_LENGTH}" maxlength="${SLUG_MAX_LENGTH}" pattern="${SLUG_INPUT_PATTERN}"
      spellcheck="false" autocapitalize="none" autocomplete="off" aria-describedby="${invalid ? 'edit-slug-error ' : ''}edit-slug-hint"${invalid ? html` aria-invalid="true"` : html``} value="${form.slug ?? view.detail.link.code}"></label>${fieldError('edit', 'slug', refusal)}</div>
  <p class="hint form-help" id="edit-slug-hint">A new code keeps the old one working: it still leads here and counts here, and no other link can take it.${former}</p>`;
}

export function editCard(view: LinkView): SafeHtml {
  const { link } = view.detail;
  const form = formOf(view);
  const refusal: LinkRefusal | undefined = view.slugFault
    ? view.error && { field: 'slug', error: view.error }
    : view.fault
      ? view.error && { error: view.error }
      : linkRefusal(view.error, {
          urlKept: form.url.trim() === link.longUrl,
          ruleUrls: (form.rules?.rules ?? []).some((rule) => rule.url.trim() !== ''),
        });
  const page = linkPath(here(view.frame, ''), view.origins, link);
  return html`<section class="card" id="edit" aria-labelledby="edit-heading">
<h2 id="edit-heading">Edit link</h2>
${view.fault ? html`` : errorNotice(formError(refusal))}
<form method="post" action="${page}" class="stack edit-link" data-link-form>
  ${csrfField(view.frame.csrfToken)}
  <label>Long URL <input type="text" name="url" inputmode="url" required spellcheck="false" value="${form.url}"${invalidWhen('edit', 'url', refusal)}></label>
  ${fieldError('edit', 'url', refusal)}
  ${codeField(view, form, refusal)}
  <div class="pair">
  <label>Title <input type="text" name="title" placeholder="Optional" value="${form.title}"></label>
  <label>Group <select name="group"${invalidWhen('edit', 'group', refusal)}>${groupOptions(view.detail.groups, form.group, 'No group')}</select></label>
  </div>
  ${fieldError('edit', 'group', refusal)}
  <label>Tags <input type="text" name="tags" autocomplete="off" spellcheck="false" placeholder="launch, social" value="${form.tags ?? view.detail.tags.join(', ')}">
  <span class="help">Separated by commas. Tags filter your list of links.</span></label>
  <input type="hidden" name="public_stats_shown" value="1">
  <label class="check"><input type="checkbox" name="public_stats" value="1"${(form.publicStats ?? link.publicStats) ? html` checked` : html``}> <span>Public stats <span class="help">(anyone with the address can see this link's clicks, and only this link's, at <code>${cardOptions(view).host}/${link.code}+</code>)</span></span></label>
  ${ruleFields(form.rules ?? ruleFormOf(link, zoneHere(view.frame)), link)}
  ${variantFields(form.test ?? variantFormOf(link, zoneHere(view.frame)), link, view.detail.variantClicks)}
  ${campaignEdit(view, form, view.fault ? view.error : undefined)}
  <div class="form-actions"><button type="submit">Save changes</button><a class="button secondary" href="${page}">Cancel</a></div>
  <p class="hint">A new URL is checked before it is saved.</p>
</form>
</section>`;
}
