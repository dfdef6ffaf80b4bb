import type { LinkGuards, LinkPreview } from './entities.ts';
import { Refusal } from './errors.ts';
import { checkPreview } from './link-campaign.ts';
import { type CheckedVariant, checkTestEnd, checkVariants } from './link-variants.ts';
import { hashPassword } from './password.ts';
import { isReservedPath, LINK_CODE_PATTERN } from './short-code.ts';
import { parseTargetUrl, type TargetUrl } from './target-url.ts';
import { DEVICES, type Device, MAX_RULES, type RuleCondition } from './targeting.ts';

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
  /** docs/api.md §16: append the short URL's query to the target. */
  forwardQuery?: boolean;
  /** docs/api.md §16: the card link previewers get; null removes it (core/link-campaign.ts checks it). */
  preview?: unknown;
  /** docs/api.md §20: hand each human click an id; null follows the workspace. */
  trackConversions?: boolean | null;
  /** docs/api.md §20: an A/B test's variants (null removes the test) and its end (core/link-variants.ts). */
  variants?: unknown;
  testEndsAt?: unknown;
}

/** The rule fields once their shape is checked: null clears one, undefined leaves it as it is. */
export interface CheckedRuleFields {
  expiresAt?: Date | null;
  maxClicks?: number | null;
  password?: string | null;
  rules?: Array<{ if: RuleCondition; url: string; target: TargetUrl }>;
  forwardQuery?: boolean;
  preview?: LinkPreview | null;
  trackConversions?: boolean | null;
  variants?: CheckedVariant[] | null;
  testEndsAt?: Date | null;
}

export const MAX_CLICKS_LIMIT = 1_000_000_000;
export const MAX_LINK_PASSWORD = 1024;
/** A new link password has at least this many characters (docs/adr/025): fewer are guessed too soon. */
export const MIN_LINK_PASSWORD = 8;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i;

function checkExpiry(value: string, nowMs: number): Date {
  const at = Date.parse(value);
  if (!RFC3339.test(value) || Number.isNaN(at)) {
    throw new Refusal('300', 'expires_at is an RFC 3339 date-time, e.g. 2027-01-31T12:00:00Z.');
  }
  if (at <= nowMs) throw new Refusal('300', 'expires_at is in the past.');
  return new Date(at);
}

function checkCondition(raw: unknown): RuleCondition {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new Refusal('300', 'A rule\'s "if" is an object of device, country and language.');
  }
  const { device, country, language, ...rest } = raw as Record<string, unknown>;
  if (Object.keys(rest).length > 0)
    throw new Refusal('300', 'A rule names only device, country and language.');
  const condition: RuleCondition = {};
  if (device !== undefined) {
    if (typeof device !== 'string' || !(DEVICES as readonly string[]).includes(device)) {
      throw new Refusal('300', `A rule's device is one of ${DEVICES.join(', ')}.`);
    }
    condition.device = device as Device;
  }
  if (country !== undefined) {
    if (typeof country !== 'string' || !/^[A-Za-z]{2}$/.test(country)) {
      throw new Refusal('300', "A rule's country is a two-letter ISO 3166 code, e.g. DE.");
    }
    condition.country = country.toUpperCase();
  }
  if (language !== undefined) {
    if (typeof language !== 'string' || !/^[A-Za-z]{2,3}$/.test(language)) {
      throw new Refusal('300', "A rule's language is a two- or three-letter ISO 639 code, e.g. fr.");
    }
    condition.language = language.toLowerCase();
  }
  if (Object.keys(condition).length === 0) throw new Refusal('300', 'A rule names at least one condition.');
  return condition;
}

function checkRules(rules: readonly unknown[]): NonNullable<CheckedRuleFields['rules']> {
  if (rules.length > MAX_RULES) throw new Refusal('300', `A link has at most ${MAX_RULES} rules.`);
  return rules.map((raw) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new Refusal('300', 'A rule is an object with "if" and "url".');
    }
    const { if: condition, url, ...rest } = raw as Record<string, unknown>;
    if (Object.keys(rest).length > 0) throw new Refusal('300', 'A rule has only "if" and "url".');
    if (typeof url !== 'string') throw new Refusal('300', "A rule's url is an absolute http(s) URL.");
    const target = parseTargetUrl(url);
    if (!target)
      throw new Refusal('300', "A rule's url must be an absolute http(s) URL of at most 2,048 characters.");
    return { if: checkCondition(condition), url: target.longUrl, target };
  });
}

/**
 * The shapes of expiry, visit limit, password and rules (all 300): a future RFC 3339 time, a whole
 * number of clicks from 1 to a billion, a password of 8-1,024 characters, at most 20 rules each with
 * at least one known condition and an absolute http(s) URL. Their targets' further checks (social,
 * inspection) are the services'.
 */
export function checkLinkRules(fields: LinkRuleFields, nowMs: number): CheckedRuleFields {
  const checked: CheckedRuleFields = {};
  const { expiresAt, maxClicks, password, rules } = fields;
  if (expiresAt !== undefined) checked.expiresAt = expiresAt === null ? null : checkExpiry(expiresAt, nowMs);
  if (maxClicks !== undefined && maxClicks !== null) {
    if (!Number.isInteger(maxClicks) || maxClicks < 1 || maxClicks > MAX_CLICKS_LIMIT) {
      throw new Refusal('300', 'max_clicks is a whole number from 1 to 1,000,000,000.');
    }
  }
  if (maxClicks !== undefined) checked.maxClicks = maxClicks;
  if (password !== undefined && password !== null) {
    if (password.length < MIN_LINK_PASSWORD || password.length > MAX_LINK_PASSWORD) {
      throw new Refusal('300', 'A link password has 8-1,024 characters; null removes it.');
    }
  }
  if (password !== undefined) checked.password = password;
  if (rules !== undefined) checked.rules = rules === null ? [] : checkRules(rules);
  if (fields.forwardQuery !== undefined) {
    if (typeof fields.forwardQuery !== 'boolean') throw new Refusal('300', 'forward_query is true or false.');
    checked.forwardQuery = fields.forwardQuery;
  }
  if (fields.preview !== undefined) checked.preview = checkPreview(fields.preview);
  if (fields.trackConversions !== undefined) {
    if (fields.trackConversions !== null && typeof fields.trackConversions !== 'boolean') {
      throw new Refusal('300', 'track_conversions is true, false or null.');
    }
    checked.trackConversions = fields.trackConversions;
  }
  if (fields.variants !== undefined)
    checked.variants = fields.variants === null ? null : checkVariants(fields.variants);
  if (fields.testEndsAt !== undefined) checked.testEndsAt = checkTestEnd(fields.testEndsAt, nowMs);
  return checked;
}

/** What is stored of checked rule fields: the password only as its hash. */
export async function guardsOf(checked: CheckedRuleFields): Promise<LinkGuards> {
  const guards: LinkGuards = {};
  if (checked.expiresAt !== undefined) guards.expiresAt = checked.expiresAt;
  if (checked.maxClicks !== undefined) guards.maxClicks = checked.maxClicks;
  if (checked.password !== undefined) {
    guards.passwordHash = checked.password === null ? null : await hashPassword(checked.password);
  }
  if (checked.rules !== undefined)
    guards.rules = checked.rules.map((rule) => ({ if: rule.if, url: rule.url }));
  if (checked.forwardQuery !== undefined) guards.forwardQuery = checked.forwardQuery;
  if (checked.preview !== undefined) guards.preview = checked.preview;
  if (checked.trackConversions !== undefined) guards.trackConversions = checked.trackConversions;
  return guards;
}
