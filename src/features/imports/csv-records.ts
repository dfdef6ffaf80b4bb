/**
 * Records of a CSV file (RFC 4180) with the line each starts on, for `snip link import`: fields
 * separated by commas, a field in double quotes may hold commas, line breaks and doubled quotes,
 * records end in CRLF or LF, a UTF-8 byte order mark is skipped. A record that breaks the rules is
 * reported with its line, and reading goes on at the next line.
 */

export type CsvRecord =
  | { line: number; fields: string[] }
  | {
      line: number;
      /** Why the record does not parse. */
      error: string;
    };

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;

type Read = { fields: string[]; next: number; breaks: number } | { error: string };

/** One record from `start`: its fields, where the next begins, and how many line breaks it held. */
function readRecord(text: string, start: number): Read {
  const fields: string[] = [];
  let pos = start;
  let breaks = 0;
  for (;;) {
    if (text.charCodeAt(pos) === QUOTE) {
      let value = '';
      let from = pos + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote < 0) return { error: 'a quoted field is not closed' };
        value += text.slice(from, quote);
        if (text.charCodeAt(quote + 1) === QUOTE) {
          value += '"';
          from = quote + 2;
          continue;
        }
        pos = quote + 1;
        break;
      }
      breaks += countBreaks(value);
      fields.push(value);
      const after = text.charCodeAt(pos);
      if (after === COMMA) {
        pos += 1;
        continue;
      }
      if (Number.isNaN(after)) return { fields, next: pos, breaks };
      if (after === LF) return { fields, next: pos + 1, breaks: breaks + 1 };
      if (after === CR && text.charCodeAt(pos + 1) === LF)
        return { fields, next: pos + 2, breaks: breaks + 1 };
      return { error: 'text follows a closing quote' };
    }
    let end = pos;
    for (;;) {
      const code = text.charCodeAt(end);
      if (Number.isNaN(code) || code === COMMA || code === LF) break;
      if (code === QUOTE) return { error: 'a quote inside a field that does not start with one' };
      end += 1;
    }
    const code = text.charCodeAt(end);
    const value =
      code === LF && text.charCodeAt(end - 1) === CR ? text.slice(pos, end - 1) : text.slice(pos, end);
    fields.push(value);
    if (code === COMMA) {
      pos = end + 1;
      continue;
    }
    return Number.isNaN(code) ? { fields, next: end, breaks } : { fields, next: end + 1, breaks: breaks + 1 };
  }
}

function countBreaks(value: string): number {
  let count = 0;
  for (let at = value.indexOf('\n'); at >= 0; at = value.indexOf('\n', at + 1)) count += 1;
  return count;
}

/** Every record of the text, blank lines (and lines of empty fields only) left out. */
export function* csvRecords(text: string): Generator<CsvRecord> {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (pos < text.length) {
    const read = readRecord(text, pos);
    if ('error' in read) {
      yield { line, error: read.error };
      const lineEnd = text.indexOf('\n', pos);
      pos = lineEnd < 0 ? text.length : lineEnd + 1;
      line += 1;
      continue;
    }
    if (read.fields.some((field) => field.trim() !== '')) yield { line, fields: read.fields };
    pos = read.next;
    line += read.breaks;
  }
}

/** Lines of the text as an editor counts them (a last line without a break counts). */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  return countBreaks(text) + (text.endsWith('\n') ? 0 : 1);
}
