import { Buffer } from 'node:buffer';
import { CsvError, type CsvErrorCode, parse } from 'csv-parse/sync';

/**
 * Records of a CSV file (RFC 4180, read by csv-parse) with the line each starts on, for `snip link
 * import`: fields separated by commas, a field in double quotes may hold commas, line breaks and
 * doubled quotes, records end in CRLF or LF (both may appear in one file), a UTF-8 byte order mark
 * is skipped. A record that breaks the rules is reported with the line it starts on, and reading
 * goes on at the next line: one stray quote costs a row, not the rest of the file.
 */

export type CsvRecord =
  | { line: number; fields: string[] }
  | {
      line: number;
      /** Why the record does not parse. */
      error: string;
    };

const LF = 0x0a;

/** The reasons as the importer words them; the page's bulk form (web/assets) says the same. */
const WHY: Partial<Record<CsvErrorCode, string>> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is not closed',
  CSV_INVALID_CLOSING_QUOTE: 'text follows a closing quote',
  INVALID_OPENING_QUOTE: 'a quote inside a field that does not start with one',
};

/** Line breaks in `bytes` from `from` to `to`: lines are counted as an editor does, by LF only. */
function breaksIn(bytes: Buffer, from: number, to: number): number {
  const span = bytes.subarray(from, to);
  let count = 0;
  for (let at = span.indexOf(LF); at >= 0; at = span.indexOf(LF, at + 1)) count += 1;
  return count;
}

/**
 * Every record of the text, blank lines (and lines of empty fields only) left out. csv-parse stops
 * at the first malformed record; it is then started again on the line after that record's first.
 */
export function csvRecords(text: string): CsvRecord[] {
  const bytes = Buffer.from(text);
  const records: CsvRecord[] = [];
  /** Where the next record begins, in bytes, and its line. */
  let start = 0;
  let line = 1;
  while (start < bytes.length) {
    const base = start;
    try {
      parse(bytes.subarray(base), {
        // A mark further on, where reading starts again after an error, is text of the field.
        bom: base === 0,
        // Not discovered from the first line: a file may mix CRLF and LF; a lone CR is text.
        record_delimiter: ['\r\n', '\n'],
        relax_column_count: true,
        on_record: (fields, info) => {
          if (fields.some((field) => field.trim() !== '')) records.push({ line, fields });
          const end = base + info.bytes;
          line += breaksIn(bytes, start, end);
          start = end;
          return null;
        },
      });
      break;
    } catch (error) {
      if (!(error instanceof CsvError)) throw error;
      records.push({ line, error: WHY[error.code] ?? error.message });
      const lineEnd = bytes.indexOf(LF, start);
      start = lineEnd < 0 ? bytes.length : lineEnd + 1;
      line += 1;
    }
  }
  return records;
}

/** Lines of the text as an editor counts them (a last line without a break counts). */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let breaks = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) breaks += 1;
  return breaks + (text.endsWith('\n') ? 0 : 1);
}
