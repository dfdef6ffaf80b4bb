/**
 * UTM parameters of a link's long URL (docs/api.md §19): read from its query when asked, never
 * stored (docs/adr/044), so a link whose URL is edited is counted under its current parameters.
 */

export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];

/** Longest UTM value kept (and accepted as a filter). */
export const UTM_VALUE_MAX = 200;

/** The first value of each UTM parameter the URL's query carries (decoded, trimmed, non-empty). */
export function utmOf(longUrl: string): Partial<Record<UtmField, string>> {
  const found: Partial<Record<UtmField, string>> = {};
  const start = longUrl.indexOf('?');
  if (start < 0) return found;
  const end = longUrl.indexOf('#', start);
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(longUrl.slice(start + 1, end < 0 ? undefined : end));
  } catch {
    return found;
  }
  for (const field of UTM_FIELDS) {
    const value = params.get(field)?.trim().slice(0, UTM_VALUE_MAX);
    if (value) found[field] = value;
  }
  return found;
}
