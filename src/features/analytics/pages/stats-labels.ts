import type { Dimension } from '../../../core/analytics/model.ts';

/**
 * How the stats page names a breakdown's values: countries with their flag and English name,
 * languages by name, the recorded codes kept beside them. The CSV keeps the codes alone.
 */

export interface ValueLabel {
  /** A flag or other mark, decorative (hidden from screen readers). */
  mark?: string;
  text: string;
  /** The value as recorded, when the text does not already show it. */
  code?: string;
}

const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
const languages = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** The flag emoji of a two-letter country code: its letters as regional indicator symbols. */
export function flagOf(country: string): string {
  return String.fromCodePoint(...[...country].map((letter) => 0x1f1e6 + letter.charCodeAt(0) - 65));
}

function named(names: Intl.DisplayNames, code: string): string | undefined {
  try {
    const name = names.of(code);
    return name && name !== code ? name : undefined;
  } catch {
    // Not a well-formed code: shown as recorded.
    return undefined;
  }
}

export function countryLabel(code: string): ValueLabel {
  if (code === 'ZZ' || !/^[A-Z]{2}$/.test(code)) return { text: 'Unknown', code };
  const name = named(regions, code);
  // A code no region has (user-assigned ones) gets no flag: it would show as two boxed letters.
  return name ? { mark: flagOf(code), text: name, code } : { text: code };
}

export function languageLabel(code: string): ValueLabel {
  if (code === 'unknown') return { text: 'Not sent' };
  const name = named(languages, code);
  return name ? { text: name, code } : { text: code };
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
