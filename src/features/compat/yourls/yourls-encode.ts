/**
 * YOURLS's answers as its PHP writes them: XML as its array-to-XML encoder makes it (a `<root>`
 * element, one child per member, empty ones self-closed, control characters dropped), JSON as
 * json_encode makes it (`\/` and `\uXXXX` for anything past ASCII).
 */

/** A member's value: text, a number, or members of its own (in order). */
export type YourlsValue = string | number | YourlsMembers;
export interface YourlsMembers {
  [name: string]: YourlsValue;
}

// Dropped as YOURLS's encoder drops them (tab included), plus what XML 1.0 cannot hold at all:
// lone surrogates and U+FFFE/U+FFFF, which would make the document unreadable.
const UNWRITABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is dropped
  /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };

export function xmlText(value: string): string {
  return value.replace(UNWRITABLE, '').replace(/[&<>\r]/g, (char) => ENTITIES[char] ?? char);
}

function xmlElement(name: string, value: YourlsValue): string {
  const inner = typeof value === 'object' ? xmlMembers(value) : xmlText(String(value));
  return inner === '' ? `<${name}/>` : `<${name}>${inner}</${name}>`;
}

function xmlMembers(members: YourlsMembers): string {
  return Object.entries(members)
    .map(([name, value]) => xmlElement(name, value))
    .join('');
}

/** The whole document; member names are YOURLS's own (never taken from the request). */
export function yourlsXml(members: YourlsMembers): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${xmlElement('root', members)}\n`;
}

const hex4 = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** json_encode's defaults: slashes escaped, every UTF-16 unit past ASCII as \uXXXX. */
export function yourlsJson(members: YourlsMembers | Record<string, string>): string {
  return JSON.stringify(members)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, hex4);
}
