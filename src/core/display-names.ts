/**
 * English names of region and language codes (Intl.DisplayNames), made on first use: building one
 * loads ICU's display data (~30 ms of CPU), which every start paid while a module made them as it
 * loaded (docs/adr/053).
 */
let names: Record<'region' | 'language', Intl.DisplayNames> | undefined;

/** The English name of a code; undefined when ICU has none or the code is malformed. */
export function displayName(type: 'region' | 'language', code: string): string | undefined {
  names ??= {
    region: new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' }),
    language: new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' }),
  };
  try {
    const name = names[type].of(code);
    return name !== code ? name : undefined;
  } catch {
    // RangeError: not a well-formed code.
    return undefined;
  }
}
