import { Refusal } from './errors.ts';
import { parseTargetUrl, type TargetUrl } from './target-url.ts';

/**
 * A/B tests (docs/api.md §20.x, docs/adr/046): a link's clicks that no targeting rule took are
 * split between 2 to 4 variant URLs by weight, the same visitor getting the same variant all day;
 * at `test_ends_at` the variant that converted best becomes the link's URL. Pure rules: the
 * shapes (300), the split and the ranking; the targets' further checks are the services'.
 */

export const MIN_VARIANTS = 2;
export const MAX_VARIANTS = 4;
/** Weights are whole per cents: each 0–100, summing to this. */
export const WEIGHT_TOTAL = 100;

export interface LinkVariant {
  url: string;
  /** Whole per cent of the clicks no rule took. */
  weight: number;
}

/** A link's running test: its variants, when it ends (null: until it is changed), when they were set. */
export interface AbTest {
  variants: readonly LinkVariant[];
  endsAt: Date | null;
  startedAt: Date;
}

export interface CheckedVariant extends LinkVariant {
  target: TargetUrl;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i;
const SHAPE = `variants are ${MIN_VARIANTS} to ${MAX_VARIANTS} objects {url, weight}`;

/** Variants as given: 2–4 of {url, weight}, distinct absolute http(s) URLs, whole weights summing to 100. */
export function checkVariants(raw: unknown): CheckedVariant[] {
  if (!Array.isArray(raw) || raw.length < MIN_VARIANTS || raw.length > MAX_VARIANTS) {
    throw new Refusal('300', `A test's ${SHAPE}; null removes them.`);
  }
  const seen = new Set<string>();
  let total = 0;
  const checked = raw.map((item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw new Refusal('300', `${SHAPE}.`);
    const { url, weight, ...rest } = item as Record<string, unknown>;
    if (Object.keys(rest).length > 0) throw new Refusal('300', 'A variant has only "url" and "weight".');
    const target = typeof url === 'string' ? parseTargetUrl(url) : undefined;
    if (!target)
      throw new Refusal('300', "A variant's url is an absolute http(s) URL of at most 2,048 characters.");
    if (typeof weight !== 'number' || !Number.isInteger(weight) || weight < 0 || weight > WEIGHT_TOTAL) {
      throw new Refusal('300', "A variant's weight is a whole number from 0 to 100.");
    }
    if (seen.has(target.normalized)) throw new Refusal('300', 'Each variant has a URL of its own.');
    seen.add(target.normalized);
    total += weight;
    return { url: target.longUrl, weight, target };
  });
  if (total !== WEIGHT_TOTAL) throw new Refusal('300', `The variants' weights sum to 100, not ${total}.`);
  return checked;
}

/** When a test ends: a future RFC 3339 date-time (300 otherwise); null: it runs until changed. */
export function checkTestEnd(raw: unknown, nowMs: number): Date | null {
  if (raw === null) return null;
  const at = typeof raw === 'string' ? Date.parse(raw) : Number.NaN;
  if (typeof raw !== 'string' || !RFC3339.test(raw) || Number.isNaN(at)) {
    throw new Refusal('300', 'test_ends_at is an RFC 3339 date-time, e.g. 2027-01-31T12:00:00Z.');
  }
  if (at <= nowMs) throw new Refusal('300', 'test_ends_at is in the past.');
  return new Date(at);
}

/** The same URLs in the same order: a change of weights alone keeps the test's figures. */
export function sameUrls(a: readonly LinkVariant[], b: readonly LinkVariant[]): boolean {
  return a.length === b.length && a.every((variant, i) => variant.url === b[i]?.url);
}

/** The variants' upper bounds on the 0–99 scale of a visitor's bucket: [30, 100] for 30/70. */
export function weightBounds(variants: readonly LinkVariant[]): number[] {
  let sum = 0;
  return variants.map((variant) => {
    sum += variant.weight;
    return sum;
  });
}

/**
 * A visitor's bucket (0–99) on a link: four bytes of the day's visitor hash mixed with the link's
 * id, so one visitor lands on unrelated variants of different links, the same one all day.
 */
export function visitorBucket(hash: Uint8Array, linkId: number): number {
  const word = ((hash[0] ?? 0) << 24) | ((hash[1] ?? 0) << 16) | ((hash[2] ?? 0) << 8) | (hash[3] ?? 0);
  const mixed = Math.imul(word ^ Math.imul(linkId, 0x9e3779b1), 0x85ebca6b);
  return ((mixed ^ (mixed >>> 13)) >>> 0) % WEIGHT_TOTAL;
}

/** The 1-based variant whose bound first exceeds the bucket (a weight of 0 is never picked). */
export function variantAt(bounds: readonly number[], bucket: number): number {
  for (let i = 0; i < bounds.length; i++) if (bucket < (bounds[i] as number)) return i + 1;
  return bounds.length;
}

/** What a variant has led to while its test ran. */
export interface VariantFigures {
  clicks: number;
  leads: number;
  sales: number;
}

/**
 * The winner of a test, as a 0-based index: the most leads per click, then the most sales, then
 * the most clicks; the first variant on a full tie. A variant without clicks has 0 leads per click.
 */
export function testWinner(figures: readonly VariantFigures[]): number {
  const rate = (f: VariantFigures) => (f.clicks > 0 ? f.leads / f.clicks : 0);
  let best = 0;
  figures.forEach((f, i) => {
    const b = figures[best] as VariantFigures;
    const better =
      rate(f) > rate(b) ||
      (rate(f) === rate(b) && (f.sales > b.sales || (f.sales === b.sales && f.clicks > b.clicks)));
    if (better) best = i;
  });
  return best;
}

/** A test as a request gives it: variants (null removes the test) and its end, each when given. */
export interface TestFields {
  variants?: readonly CheckedVariant[] | null;
  testEndsAt?: Date | null;
}

/**
 * The test a link has after a request (undefined: unchanged): new variants start it anew unless
 * their URLs are the ones it has (a change of weights keeps its figures); an end needs variants.
 */
export function testAfter(
  given: TestFields,
  current: AbTest | null,
  nowMs: number,
): AbTest | null | undefined {
  const { variants, testEndsAt } = given;
  if (variants === undefined && testEndsAt === undefined) return undefined;
  if (variants === null || (variants === undefined && current === null)) {
    if (testEndsAt) throw new Refusal('300', 'test_ends_at needs variants.');
    return variants === null ? null : undefined;
  }
  const kept = variants?.map(({ url, weight }) => ({ url, weight })) ?? current?.variants ?? [];
  const started = current && sameUrls(current.variants, kept) ? current.startedAt : new Date(nowMs);
  const endsAt = testEndsAt !== undefined ? testEndsAt : (current?.endsAt ?? null);
  return { variants: kept, endsAt, startedAt: started };
}
