import type { Dimension } from '../../../core/analytics/model.ts';
import { sourceNamed } from '../../../core/analytics/referrer-sources.ts';
import type { FilterName } from '../../../core/analytics/stats-filters.ts';
import { displayName } from '../../../core/display-names.ts';
import { flagAsset } from '../../../web/assets.ts';

/**
 * How the stats page names a breakdown's values: countries by their English name with their flag,
 * languages by name, a few fixed values in words. The CSV keeps the recorded codes.
 */

export interface ValueLabel {
  text: string;
  /** The address of the country's flag image, decorative beside the name. */
  flag?: string;
}

export function countryLabel(code: string): ValueLabel {
  // ZZ is how the store records a country it could not tell.
  if (code === 'ZZ' || !/^[A-Z]{2}$/.test(code)) return { text: 'Unknown' };
  const name = displayName('region', code);
  // A code no region has (user-assigned ones) is shown as recorded, without a flag.
  if (!name) return { text: code };
  const flag = flagAsset(code);
  return flag ? { text: name, flag } : { text: name };
}

export function languageLabel(code: string): ValueLabel {
  if (code === 'unknown') return { text: 'Not sent' };
  // Not a well-formed code, or one without a name: shown as recorded.
  return { text: displayName('language', code) ?? code };
}

const FIXED: Partial<Record<Dimension, Record<string, string>>> = {
  referrer: { direct: 'Direct (no referrer)' },
  device: { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet', other: 'Other' },
  source: { qr: 'QR code', link: 'Link' },
  bot: { head: 'HEAD requests', prefetch: 'Prefetches', 'no-agent': 'No user agent' },
};

/** The label of one row; `other` beyond the top rows is the sum of the rest. */
export function valueLabel(dimension: Dimension, value: string, rest: boolean): ValueLabel {
  if (rest) return { text: 'All others' };
  if (dimension === 'country') return countryLabel(value);
  if (dimension === 'language') return languageLabel(value);
  return { text: FIXED[dimension]?.[value] ?? value };
}

/** What a filter is called on the page's chips ("Country: Germany"). */
export const FILTER_NAMES: Record<FilterName, string> = {
  country: 'Country',
  device: 'Device',
  os: 'Operating system',
  browser: 'Browser',
  language: 'Language',
  referrer: 'Referrer',
  source: 'Came by',
  utm_source: 'Campaign source',
  utm_medium: 'Campaign medium',
  utm_campaign: 'Campaign',
  group: 'Group',
  tag: 'Tag',
  domain: 'Domain',
};

/** A filter's value in words, as its breakdown names it: a country's name, "QR code" for qr. */
export function filterText(name: FilterName, given: string): string {
  const value = given.trim();
  if (name === 'country') return countryLabel(value.toUpperCase()).text;
  if (name === 'language') return languageLabel(value.toLowerCase()).text;
  if (name === 'referrer')
    return sourceNamed(value) ?? valueLabel('referrer', value.toLowerCase(), false).text;
  if (name === 'device' || name === 'source') return valueLabel(name, value, false).text;
  return value;
}
