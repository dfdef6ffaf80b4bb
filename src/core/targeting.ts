/**
 * Targeting rules (docs/api.md §8.3): an ordered list of conditions and URLs; the first rule whose
 * every given condition holds names the redirect's target, else the link's own URL.
 */

export const DEVICES = ['ios', 'android', 'mobile', 'desktop'] as const;
export type Device = (typeof DEVICES)[number];

export const MAX_RULES = 20;

export interface RuleCondition {
  device?: Device;
  /** ISO 3166-1 alpha-2, upper case. */
  country?: string;
  /** Primary language subtag (ISO 639), lower case. */
  language?: string;
}

export interface LinkRule {
  if: RuleCondition;
  url: string;
}

/**
 * What the rules may ask of a visitor, each answered only when a rule asks (parsing a user agent or
 * looking up an address costs; a link whose rules name only languages pays for neither).
 */
export interface VisitorFacts {
  /** Which of the devices the visitor's user agent is (several can hold: an iPhone is ios and mobile). */
  isDevice(device: Device): boolean;
  /** The country of the client address, upper case, or undefined when unknown. */
  country(): string | undefined;
  /** The visitor's most preferred language (primary subtag, lower case), or undefined. */
  language(): string | undefined;
}

export function ruleHolds(condition: RuleCondition, visitor: VisitorFacts): boolean {
  if (condition.device !== undefined && !visitor.isDevice(condition.device)) return false;
  if (condition.country !== undefined && visitor.country() !== condition.country) return false;
  if (condition.language !== undefined && visitor.language() !== condition.language) return false;
  return true;
}

/** The first rule that holds for the visitor, in order. */
export function firstMatch<T extends { if: RuleCondition }>(
  rules: readonly T[],
  visitor: VisitorFacts,
): T | undefined {
  return rules.find((rule) => ruleHolds(rule.if, visitor));
}

/** How much of an Accept-Language header is read: more than any browser sends, bounded for hostile ones. */
const MAX_ACCEPT_LANGUAGE = 1024;
const MAX_LANGUAGE_RANGES = 20;
/** A language range whose primary subtag is an ISO 639 code (`i-` and `x-` tags name none). */
const LANGUAGE_RANGE = /^([A-Za-z]{2,3})(?:-[A-Za-z0-9]{1,8})*$/;
const WEIGHT = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

/**
 * The primary subtag, lower case, of the language an Accept-Language header prefers most
 * (`fr-CH, fr;q=0.9, en;q=0.8` → `fr`): the highest weight wins, the earlier one on a tie; `*`,
 * weight 0 and entries that are not a language range or carry a malformed weight are passed over.
 * Only the first 20 entries within the first 1 KB are read.
 */
export function preferredLanguage(header: string | undefined): string | undefined {
  if (!header) return undefined;
  let best: string | undefined;
  let bestWeight = 0;
  for (const entry of header.slice(0, MAX_ACCEPT_LANGUAGE).split(',', MAX_LANGUAGE_RANGES)) {
    const [range = '', ...parameters] = entry.split(';');
    const primary = LANGUAGE_RANGE.exec(range.trim())?.[1];
    if (primary === undefined) continue;
    let weight = 1;
    for (const parameter of parameters) {
      const text = parameter.trim();
      if (!/^q=/i.test(text)) continue;
      const value = WEIGHT.exec(text)?.[1];
      weight = value === undefined ? 0 : Number(value);
    }
    if (weight > bestWeight) {
      best = primary.toLowerCase();
      bestWeight = weight;
      if (weight === 1) break;
    }
  }
  return best;
}
