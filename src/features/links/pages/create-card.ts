import { displayHost } from '../../../core/domain-host.ts';
import type { Group, Link } from '../../../core/entities.ts';
import { isApiErrorCode } from '../../../core/errors.ts';
import { SLUG_MAX_LENGTH, SLUG_MIN_LENGTH } from '../../../core/short-code.ts';
import type { LinkOrigins } from '../../../core/short-url.ts';
import { type Frame, here, zoneHere } from '../../../web/frame.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import { csrfField, errorNotice, type PageError } from '../../../web/notices.ts';
import { namesPreview, namesUtm, previewFieldset, utmFieldset } from './campaign-fields.ts';
import { type CampaignFault, type CampaignForm, EMPTY_CAMPAIGN_FORM } from './campaign-form.ts';
import { groupOptions } from './group-options.ts';
import { fieldError, formError, invalidWhen, type LinkRefusal, linkRefusal } from './link-field-errors.ts';
import { copyableShortUrl, shortUrlText } from './link-parts.ts';
import { namesRules, ruleFields } from './rule-fields.ts';
import { EMPTY_RULE_FORM, type RuleForm } from './rule-form.ts';
import { variantFieldset } from './variant-fields.ts';
import { type VariantForm, variantFormOf } from './variant-form.ts';

/**
 * The dashboard's form that shortens a URL: a refusal said in plain words under the field it is
 * about (link-field-errors.ts), or above the form when it is about none; the rules and campaign
 * fields and the A/B test behind disclosures. In a workspace without links it leads the page: "Create your first link".
 */

/** The hosts new links may go on (the default domain's first), and the one they go on unless told. */
export interface DomainChoices {
  hosts: string[];
  chosen: string;
}

export interface CreateDraft {
  url: string;
  group: string;
  slug: string;
  /** The title and the tags (separated by commas), as typed. */
  title?: string;
  tags?: string;
  domain?: string;
  rules?: RuleForm;
  campaign?: CampaignForm;
  /** The A/B test's rows and end, as sent. */
  test?: VariantForm;
}

export interface CreateView {
  frame: Frame;
  origins: LinkOrigins;
  domains: DomainChoices;
  groups: readonly Group[];
  /** The link just created (after the redirect), shown with its short URL. */
  created?: Link;
  /** A refused form: the field it is about shows why. */
  error?: PageError;
  draft?: CreateDraft;
  /** The campaign fields a refusal is about: shown next to them. */
  fault?: CampaignFault;
  /** The workspace has no link yet: the form is its first step. */
  first: boolean;
  /** The link the form is filled in from (the list's Duplicate): said above it. */
  copyOf?: Link;
}

const FORM = 'create';

/** The browser's check of a custom code (docs/api.md §8.1); the server checks it again, and whether it is free. */
const SLUG_INPUT_PATTERN = `[A-Za-z0-9_\\-]{${SLUG_MIN_LENGTH},${SLUG_MAX_LENGTH}}`;

/** A choice of domain, only when the workspace has more than one to choose from. */
/** The hosts as options, each shown as people read it (Unicode) and sent in its ASCII form. */
export function domainOptions(hosts: readonly string[], selected: string): SafeHtml[] {
  return hosts.map((host) =>
    host === selected
      ? html`<option value="${host}" selected>${displayHost(host)}</option>`
      : html`<option value="${host}">${displayHost(host)}</option>`,
  );
}

function domainField(choices: DomainChoices, drafted: string | undefined, refusal?: LinkRefusal): SafeHtml {
  if (choices.hosts.length < 2) return html``;
  const options = domainOptions(choices.hosts, drafted || choices.chosen);
  return html`<div class="field"><label>Domain <select name="domain"${invalidWhen(FORM, 'domain', refusal)}>${options}</select></label>${fieldError(FORM, 'domain', refusal)}</div>`;
}

/** The UTM builder and the social preview of the create form, each behind its own disclosure. */
function campaignDetails(view: CreateView, error: PageError | undefined): SafeHtml {
  const draft = view.draft;
  const campaign = draft?.campaign ?? EMPTY_CAMPAIGN_FORM;
  const fields = {
    id: FORM,
    form: campaign,
    base: EMPTY_CAMPAIGN_FORM.utm,
    url: draft?.url ?? '',
    card: { host: draft?.domain || view.domains.chosen, fallbackTitle: "The target page's title" },
    fault: view.fault,
    error,
  };
  const open = (yes: boolean) => (yes ? html` open` : html``);
  return html`<details class="more"${open(view.fault === 'utm' || namesUtm(campaign))}><summary>Campaign parameters (UTM) and query forwarding</summary>
  <div class="stack">${utmFieldset(fields)}</div></details>
  <details class="more"${open(view.fault === 'preview' || namesPreview(campaign))}><summary>Link preview in chats</summary>
  <div class="stack">${previewFieldset(fields)}</div></details>`;
}

/** The fields of the first line: the URL, a custom code, the domain and the group, then the button. */
function mainFields(view: CreateView, draft: CreateDraft, refusal: LinkRefusal | undefined): SafeHtml {
  const slugInvalid = refusal?.field === 'slug';
  const focus = view.first && !view.error ? html` autofocus` : html``;
  return html`<div class="field grow"><label>Long URL <input type="text" id="create-url" name="url" inputmode="url" required placeholder="https://example.com/a/long/page" value="${draft.url}"${invalidWhen(FORM, 'url', refusal)}${focus}></label>${fieldError(FORM, 'url', refusal)}</div>
  <div class="field slug"><label>Custom code <input type="text" name="slug" minlength="${SLUG_MIN_LENGTH}" maxlength="${SLUG_MAX_LENGTH}" pattern="${SLUG_INPUT_PATTERN}"
      spellcheck="false" autocapitalize="none" autocomplete="off" placeholder="optional" aria-describedby="${slugInvalid ? `${FORM}-slug-error ` : ''}slug-hint"${slugInvalid ? html` aria-invalid="true"` : html``} value="${draft.slug}"></label>${fieldError(FORM, 'slug', refusal)}</div>
  ${domainField(view.domains, draft.domain, refusal)}<div class="field"><label>Group <select name="group"${invalidWhen(FORM, 'group', refusal)}>${groupOptions(view.groups, draft.group, 'No group')}</select></label>${fieldError(FORM, 'group', refusal)}</div>
  <button type="submit" class="create-submit">Shorten</button>`;
}

/** The A/B test of the new link: open when the sent form named a variant. */
function testDetails(view: CreateView, draft: CreateDraft): SafeHtml {
  const form = draft.test ?? variantFormOf(null, zoneHere(view.frame));
  return variantFieldset(
    form,
    'create',
    form.rows.some((row) => row.url !== ''),
  );
}

/** Says whose copy the form holds, and that it gets a code of its own. */
function copied(view: CreateView): SafeHtml {
  if (!view.copyOf || view.error) return html``;
  return html`<p class="notice" role="status" data-copy-of="${view.copyOf.code}">A copy of ${shortUrlText(view.origins, view.copyOf, 'copy-of')}: change what you like, then Shorten. The copy gets a code of its own.</p>`;
}

export function createCard(view: CreateView): SafeHtml {
  const draft = view.draft ?? { url: '', group: '', slug: '' };
  // A variant's URL is checked as a rule's: a refusal of either may be about the long URL or not.
  const ruleUrls =
    (draft.rules?.rules ?? []).some((rule) => rule.url.trim() !== '') ||
    (draft.test?.rows ?? []).some((row) => row.url !== '');
  const said =
    view.error && isApiErrorCode(view.error.code) ? linkRefusal(view.error, { ruleUrls }) : undefined;
  // About a domain where the form offers no choice of one: said above the form.
  const refusal: LinkRefusal | undefined =
    said?.field === 'domain' && view.domains.hosts.length < 2 ? { error: said.error } : said;
  const created = view.created
    ? html`<p class="notice ok" role="status" data-done="link-created">Created: ${copyableShortUrl(view.origins, view.created, 'created')}</p>`
    : html``;
  return html`<section class="card create${view.first ? ' first' : ''}" id="create" aria-labelledby="create-heading">
<div class="head-row"><h2 id="create-heading">${view.first ? 'Create your first link' : 'Shorten a URL'}</h2>
<a class="button ghost small" href="${here(view.frame, '/bulk')}">Create many at once</a></div>
${view.first ? html`<p class="lead-in">Paste a long URL: Snip checks that it answers, then gives you a short link to share.</p>` : html``}
${view.fault ? html`` : errorNotice(formError(refusal))}
${created}
${copied(view)}
<form method="post" action="${here(view.frame, '/links')}" class="row create-form" data-link-form>
  ${csrfField(view.frame.csrfToken)}
  ${mainFields(view, draft, refusal)}
  <p class="hint form-help" id="slug-hint">A custom code is ${SLUG_MIN_LENGTH}–${SLUG_MAX_LENGTH} letters, digits, <code>_</code> or <code>-</code>; left empty, a 7-character code is drawn.</p>
  <details class="more"${namesRules(draft.rules) ? html` open` : html``}><summary>Expiry, visit limit, password and targeting</summary>
  <div class="stack">${ruleFields(draft.rules ?? { ...EMPTY_RULE_FORM, zone: zoneHere(view.frame) })}
  <button type="submit">Shorten with these rules</button></div>
  </details>
  <details class="more"${draft.title || draft.tags ? html` open` : html``}><summary>Title and tags</summary>
  <div class="stack"><label>Title <input type="text" name="title" placeholder="The target page’s title when empty" value="${draft.title ?? ''}"></label>
  <label>Tags <input type="text" name="tags" autocomplete="off" spellcheck="false" placeholder="launch, social" value="${draft.tags ?? ''}">
  <span class="help">Separated by commas. Tags filter your list of links.</span></label></div>
  </details>
  ${campaignDetails(view, refusal?.error)}
  ${testDetails(view, draft)}
</form>
</section>`;
}
