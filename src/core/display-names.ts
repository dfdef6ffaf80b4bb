/**
 * English names of region and language codes (Intl.DisplayNames), made on first use: building one
 * loads ICU's display data (~30 ms of CPU), which every start paid while a module made them as it
 * loaded (docs/adr/053).
 */
let names: Record<'region' | 'language', Intl.DisplayNames> | undefined;

/** The English name of a code, or the code itself when ICU has none; RangeError for a malformed one. */
export function displayName(type: 'region' | 'language', code: string): string {
  names ??= {
    region: new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' }),
    language: new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' }),
  };
  return names[type].of(code) ?? code;
}
