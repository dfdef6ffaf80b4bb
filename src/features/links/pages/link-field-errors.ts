import { Refusal } from '../../../core/errors.ts';
import type { UrlFault } from '../../../core/url-input.ts';
import { html, type SafeHtml } from '../../../web/html.ts';
import {
  type LinkField,
  OWN_URL_TEXT,
  LINK_REFUSAL_TEXT as PLAIN,
  URL_FAULT_TEXT,
} from '../../../web/link-refusal-text.ts';
import type { PageError } from '../../../web/notices.ts';

/**
 * A refused create or change of a link, said to a person: which field it is about and a plain
 * sentence, shown next to that field (the input names it in aria-describedby). The API's code stays
 * in data-error for scripts and tests; a refusal about no one field is shown above the form.
 */

export type { LinkField };
export { OWN_URL_TEXT };

/** A refused link form's error; a 305 says which of its two refusals it is. */
export interface LinkPageError extends PageError {
  /** The URL points at this Snip (its host or a short URL of it), rather than being one the workspace has a link to. */
  ownUrl?: boolean;
  /** A 300 about the long URL as sent (plain-faults.ts): why it is refused. */
  urlFault?: UrlFault;
}

/**
 * The page error of a refusal of the link forms. 305 is two refusals on the API: a duplicate names
 * the link that holds the URL (facts.existingCode); a URL pointing at Snip itself has none to name.
 */
export function linkPageError(refused: unknown, shown: PageError): LinkPageError {
  const ownUrl =
    refused instanceof Refusal && refused.code === '305' && refused.facts.existingCode === undefined;
  return ownUrl ? { ...shown, ownUrl } : shown;
}

export interface LinkRefusal {
  /** The field it is about; none: the whole form. */
  field?: LinkField;
  error: PageError;
}

/**
 * The field and the plain sentence of a refusal; an unknown code keeps its own message. The URL
 * checks refuse a targeting rule's URL with the codes of the long URL: a change that kept its long
 * URL, or a refusal that says it is a rule's, is about a rule; with rule URLs in the form it may be
 * either. Those are said above the form.
 */
export function linkRefusal(
  error: LinkPageError | undefined,
  options: { urlKept?: boolean; ruleUrls?: boolean } = {},
): LinkRefusal | undefined {
  if (!error) return undefined;
  // Found by looking at the long URL itself: about it, whatever rules the form holds.
  if (error.urlFault) {
    return { field: 'url', error: { code: error.code, message: URL_FAULT_TEXT[error.urlFault] } };
  }
  const plain = error.ownUrl ? { field: 'url' as const, text: OWN_URL_TEXT } : PLAIN[error.code];
  if (!plain) return { error };
  if (plain.field === 'url' && (options.urlKept || /^A rule/.test(error.message))) {
    return { error: { code: error.code, message: `A targeting rule’s URL was refused. ${plain.text}` } };
  }
  if (plain.field === 'url' && options.ruleUrls) {
    const message = `The long URL or a targeting rule’s URL was refused. ${plain.text}`;
    return { error: { code: error.code, message } };
  }
  // 305 names the existing short link in the API's message: kept after the sentence.
  const existing =
    error.code === '305' && !error.ownUrl ? /https?:\/\/\S+/.exec(error.message)?.[0] : undefined;
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
