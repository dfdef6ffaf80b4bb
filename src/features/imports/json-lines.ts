/**
 * Where the entries of a JSON list begin, so `snip link import` can name the line of an entry it
 * refuses. The text has parsed already (JSON.parse); this only walks it once more for positions.
 */

const SPACE = new Set([0x20, 0x09, 0x0d, 0xfeff]);
const LF = 10;
const QUOTE = 34;
const BACKSLASH = 92;
const OPEN = new Set([0x5b, 0x7b]);
const CLOSE = new Set([0x5d, 0x7d]);
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const COMMA = 44;
const COLON = 58;

/** The end (exclusive) of the string that starts at `start`. */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  while (at < text.length && text.charCodeAt(at) !== QUOTE) at += text.charCodeAt(at) === BACKSLASH ? 2 : 1;
  return at + 1;
}

function nextSolid(text: string, from: number): number {
  let at = from;
  while (at < text.length && (SPACE.has(text.charCodeAt(at)) || text.charCodeAt(at) === LF)) at += 1;
  return at;
}

/**
 * The line (1-based) each entry of the list starts on: the document itself when `key` is undefined,
 * else the list under that key of the top object (`{"data": [...]}`).
 */
export function entryLines(text: string, key: string | undefined): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let listDepth = -1;
  let expectEntry = false;
  let lastKey: string | undefined;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === LF) {
      line += 1;
      continue;
    }
    if (SPACE.has(code)) continue;
    if (depth === listDepth && expectEntry && code !== CLOSE_LIST) {
      lines.push(line);
      expectEntry = false;
    }
    if (code === QUOTE) {
      const end = stringEnd(text, at);
      if (depth === 1 && key !== undefined && text.charCodeAt(nextSolid(text, end)) === COLON) {
        lastKey = JSON.parse(text.slice(at, end)) as string;
      }
      at = end - 1;
    } else if (OPEN.has(code)) {
      depth += 1;
      const isList = code === OPEN_LIST && listDepth === -1;
      if (isList && (key === undefined ? depth === 1 : depth === 2 && lastKey === key)) {
        listDepth = depth;
        expectEntry = true;
      }
    } else if (CLOSE.has(code)) {
      if (depth === listDepth) listDepth = -2;
      depth -= 1;
    } else if (code === COMMA && depth === listDepth) {
      expectEntry = true;
    }
  }
  return lines;
}
