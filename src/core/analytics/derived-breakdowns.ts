import type { BreakdownRow } from './model.ts';
import { sourceOf } from './referrer-sources.ts';
import { UTM_FIELDS, type UtmField, utmOf } from './utm.ts';

/**
 * Breakdowns read from others (docs/api.md §19): referrer sources from the referrer hosts (the
 * table of referrer-sources.ts), and UTM values from the clicks per long URL of the clicked links.
 * A link whose URL carries no such parameter is not listed in that breakdown.
 */

export const DERIVED_KEYS = {
  referrer_source: 'referrer_sources',
  utm_source: 'utm_sources',
  utm_medium: 'utm_mediums',
  utm_campaign: 'utm_campaigns',
} as const;

export type DerivedDimension = keyof typeof DERIVED_KEYS;
export type DerivedKey = (typeof DERIVED_KEYS)[DerivedDimension];

function summed(pairs: Iterable<[string, number]>): BreakdownRow[] {
  const sums = new Map<string, number>();
  for (const [value, clicks] of pairs) sums.set(value, (sums.get(value) ?? 0) + clicks);
  return [...sums].map(([value, clicks]) => ({ value, clicks }));
}

/** Every derived breakdown, complete and unsorted. */
export function derivedBreakdowns(
  referrers: readonly BreakdownRow[],
  urls: readonly BreakdownRow[],
): Record<DerivedDimension, BreakdownRow[]> {
  const utms = urls.map((row) => [utmOf(row.value), row.clicks] as const);
  const utm = (field: UtmField) =>
    summed(
      utms.flatMap(([found, clicks]) => (found[field] ? [[found[field], clicks] as [string, number]] : [])),
    );
  return {
    referrer_source: summed(referrers.map((row) => [sourceOf(row.value), row.clicks])),
    ...(Object.fromEntries(UTM_FIELDS.map((field) => [field, utm(field)])) as Record<
      UtmField,
      BreakdownRow[]
    >),
  };
}
