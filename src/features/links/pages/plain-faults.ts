import { MAX_TITLE_LENGTH } from '../../../core/link-fields.ts';
import { urlFault } from '../../../core/url-input.ts';
import type { LinkPageError } from './link-field-errors.ts';

/**
 * A 300 of the link forms about the long URL, the title or the expiry, said the way a person reads
 * it (docs/api.md §18: the pages never show a raw field name such as `expires_at`). Which field it
 * is about is found by looking again at what was sent, as campaignFault does, never by reading the
 * API's message; the code stays 300. A 300 about anything else keeps its message.
 */

/** What a form sent of the fields said here, as the service was given them. */
export interface SentFields {
  /** The long URL, when the form asked for one (absent: an edit that kept it). */
  url?: string;
  title?: string;
  expiresAt?: string | null;
}

/** The shape of the instants the forms send (rule-form.ts instantOf); anything else is no date. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function titleFault(title: string | undefined): string | undefined {
  if (title === undefined) return undefined;
  const length = [...title.trim()].length;
  if (length <= MAX_TITLE_LENGTH) return undefined;
  return `The title is ${length.toLocaleString('en-US')} characters long; a title has at most ${MAX_TITLE_LENGTH}. Shorten it: nothing was saved.`;
}

function expiryFault(expiresAt: string | null | undefined, nowMs: number): string | undefined {
  if (typeof expiresAt !== 'string') return undefined;
  const at = Date.parse(expiresAt);
  if (!INSTANT.test(expiresAt) || Number.isNaN(at)) return 'The expiry is not a date and time. Pick one.';
  return at <= nowMs ? 'The expiry date is in the past. Choose a later one.' : undefined;
}

export function plainFault(shown: LinkPageError, sent: SentFields, nowMs = Date.now()): LinkPageError {
  if (shown.code !== '300') return shown;
  // The URL is checked first: a 300 for a URL of the wrong shape is about it, said by its cause.
  const fault = sent.url === undefined ? undefined : urlFault(sent.url);
  if (fault) return { ...shown, urlFault: fault };
  const said = [titleFault(sent.title), expiryFault(sent.expiresAt, nowMs)].filter(
    (sentence): sentence is string => sentence !== undefined,
  );
  return said.length === 0 ? shown : { ...shown, message: said.join(' ') };
}
