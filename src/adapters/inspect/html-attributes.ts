const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/**
 * Attributes of one start tag's inside (the text between the tag name and `>`), names lower-cased.
 * The first occurrence of a name wins, as in the HTML parser.
 */
export function parseAttributes(inside: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of inside.matchAll(ATTRIBUTE)) {
    const name = (match[1] ?? '').toLowerCase();
    if (!attributes.has(name)) attributes.set(name, match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attributes;
}

// Quoted values may hold `>`; the alternatives start with disjoint characters, so matching stays linear.
const META_TAG = /<meta\b((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;

/** Attributes of every `<meta>` tag in `html`, in document order. */
export function* metaTags(html: string): Generator<Map<string, string>> {
  for (const match of html.matchAll(META_TAG)) yield parseAttributes(match[1] ?? '');
}
