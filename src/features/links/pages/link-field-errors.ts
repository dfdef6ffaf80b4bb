import { html, type SafeHtml } from '../../../web/html.ts';
import type { PageError } from '../../../web/notices.ts';

/**
 * A refused create or change of a link, said to a person: which field it is about and a plain
 * sentence, shown next to that field (the input names it in aria-describedby). The API's code stays
 * in data-error for scripts and tests; a refusal about no one field is shown above the form.
 */

export type LinkField = 'url' | 'slug' | 'group' | 'domain';

export interface LinkRefusal {
  /** The field it is about; none: the whole form. */
  field?: LinkField;
  error: PageError;
}

const PLAIN: Readonly<Record<string, { field?: LinkField; text: string }>> = {
  '302': { field: 'url', text: 'Enter the long URL to shorten.' },
  '304': { text: 'Your plan’s link limit is reached. Delete links you no longer need, or upgrade.' },
  '305': { field: 'url', text: 'You already have a short link for this URL.' },
  '306': { field: 'url', text: 'That page could not be reached. Check the address and try again.' },
  '307': { field: 'url', text: 'That page does not exist (it answers “Not found”). Check the address.' },
  '308': { field: 'url', text: 'That page blocks automated checks, so it cannot be shortened.' },
  '309': { field: 'url', text: 'That page is behind a bot challenge, so it cannot be checked.' },
  '310': { field: 'url', text: 'Links to social networks cannot be shortened here.' },
  '311': { field: 'url', text: 'That page is empty. Check the address.' },
  '312': { field: 'group', text: 'That group no longer exists. Choose another.' },
  '313': { field: 'slug', text: 'That code is taken. Try another one.' },
  '314': { text: 'This link no longer exists.' },
  '316': { field: 'url', text: 'That address is on a list of harmful sites.' },
  '317': { field: 'domain', text: 'That domain cannot be used yet: it is not verified for this workspace.' },
  '320': { field: 'url', text: 'Use a public web address that starts with http:// or https://.' },
};

/**
 * The field and the plain sentence of a refusal; an unknown code keeps its own message. The URL
 * checks refuse a targeting rule's URL with the codes of the long URL: a change that kept its long
 * URL, or a refusal that says it is a rule's, is about a rule; with rule URLs in the form it may be
 * either. Those are said above the form.
 */
export function linkRefusal(
  error: PageError | undefined,
  options: { urlKept?: boolean; ruleUrls?: boolean } = {},
): LinkRefusal | undefined {
  if (!error) return undefined;
  const plain = PLAIN[error.code];
  if (!plain) return { error };
  if (plain.field === 'url' && (options.urlKept || /^A rule/.test(error.message))) {
    return { error: { code: error.code, message: `A targeting rule’s URL was refused. ${plain.text}` } };
  }
  if (plain.field === 'url' && options.ruleUrls) {
    const message = `The long URL or a targeting rule’s URL was refused. ${plain.text}`;
    return { error: { code: error.code, message } };
  }
  // 305 names the existing short link in the API's message: kept after the sentence.
  const existing = error.code === '305' ? /https?:\/\/\S+/.exec(error.message)?.[0] : undefined;
  const message = existing ? `${plain.text} It is ${existing.replace(/[.,]$/, '')}.` : plain.text;
  return { field: plain.field, error: { code: error.code, message } };
}

const errorId = (form: string, field: LinkField) => `${form}-${field}-error`;

/** The error line under a field, when the refusal is about it. */
export function fieldError(form: string, field: LinkField, refusal: LinkRefusal | undefined): SafeHtml {
  if (refusal?.field !== field) return html``;
  return html`<p class="field-error" id="${errorId(form, field)}" role="alert" data-error="${refusal.error.code}">${refusal.error.message}</p>`;
}

/** The field's input attributes: marked invalid and described by its error line, when it has one. */
export function invalidWhen(form: string, field: LinkField, refusal: LinkRefusal | undefined): SafeHtml {
  if (refusal?.field !== field) return html``;
  return html` aria-invalid="true" aria-describedby="${errorId(form, field)}"`;
}

/** The refusal shown above the form: one about no single field. */
export function formError(refusal: LinkRefusal | undefined): PageError | undefined {
  return refusal && refusal.field === undefined ? refusal.error : undefined;
}
