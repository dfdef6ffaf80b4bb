import { Refusal } from './errors.ts';
import { isReservedPath, LINK_CODE_PATTERN } from './short-code.ts';

/**
 * The fields an account holder gives a link besides its target (docs/api.md §7–8): a custom slug,
 * a title, tags. Each check answers 300 for a value of the wrong shape; a reserved slug is 313.
 */

export const MAX_TITLE_LENGTH = 500;
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 50;
/** Letters, digits, marks, spaces and the punctuation of names; no commas (tags travel comma-joined in CSV). */
const TAG_PATTERN = /^[\p{L}\p{M}\p{N} _.:/#&+'()-]+$/u;

/** A custom slug as given: 3–64 of [A-Za-z0-9_-] (300), not one of Snip's own paths in any case (313). */
export function checkSlug(slug: string): string {
  if (!LINK_CODE_PATTERN.test(slug)) {
    throw new Refusal('300', 'A slug is 3-64 characters of A-Z, a-z, 0-9, "_" and "-".');
  }
  if (isReservedPath(slug)) throw new Refusal('313', 'This slug is a path of Snip itself.');
  return slug;
}

/** A title as given: trimmed, at most MAX_TITLE_LENGTH characters, no control characters. */
export function checkTitle(title: string): string {
  const trimmed = title.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if ([...trimmed].length > MAX_TITLE_LENGTH || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new Refusal(
      '300',
      `A title is at most ${MAX_TITLE_LENGTH} characters, without control characters.`,
    );
  }
  return trimmed;
}

/** Tags as given: each trimmed, 1–50 characters; at most 20 once duplicates are dropped; sorted. */
export function checkTags(tags: readonly string[]): string[] {
  const kept = new Set<string>();
  for (const tag of tags) {
    const trimmed = tag.trim().normalize('NFC');
    if (trimmed === '' || [...trimmed].length > MAX_TAG_LENGTH || !TAG_PATTERN.test(trimmed)) {
      throw new Refusal(
        '300',
        `A tag is 1-${MAX_TAG_LENGTH} letters, digits, spaces or the marks _ . : / # & + ' ( ) -.`,
      );
    }
    kept.add(trimmed);
  }
  if (kept.size > MAX_TAGS) throw new Refusal('300', `A link has at most ${MAX_TAGS} tags.`);
  return [...kept].sort();
}

/** Expiry, visit limit, password and targeting (docs/api.md §8.2–8.3), as a request names them. */
export interface LinkRuleFields {
  expiresAt?: string | null;
  maxClicks?: number | null;
  password?: string | null;
  rules?: readonly unknown[] | null;
}

/**
 * Link rules are validated (a past `expires_at`, a `max_clicks` below 1 are 300) but not yet
 * enforced by the redirect, so a value that would set one is refused with 300 rather than stored and
 * ignored (docs/adr/015). null, or no rules, is what every link has and passes.
 */
export function refuseLinkRules(fields: LinkRuleFields, nowMs: number): void {
  const { expiresAt, maxClicks, password, rules } = fields;
  if (typeof expiresAt === 'string') {
    const at = Date.parse(expiresAt);
    if (!RFC3339.test(expiresAt) || Number.isNaN(at)) {
      throw new Refusal('300', 'expires_at is an RFC 3339 date-time, e.g. 2027-01-31T12:00:00Z.');
    }
    if (at <= nowMs) throw new Refusal('300', 'expires_at is in the past.');
  }
  if (typeof maxClicks === 'number' && (!Number.isInteger(maxClicks) || maxClicks < 1)) {
    throw new Refusal('300', 'max_clicks is a whole number of at least 1.');
  }
  if (typeof password === 'string' && password.length === 0) {
    throw new Refusal('300', 'A password is not empty; null removes it.');
  }
  const setsRule =
    typeof expiresAt === 'string' ||
    typeof maxClicks === 'number' ||
    typeof password === 'string' ||
    (Array.isArray(rules) && rules.length > 0);
  if (setsRule) {
    throw new Refusal(
      '300',
      'Expiry, visit limits, passwords and targeting rules are not available on this Snip yet; send them as null.',
    );
  }
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i;
