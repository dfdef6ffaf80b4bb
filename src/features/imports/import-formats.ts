import { Refusal } from '../../core/errors.ts';
import { countLines, csvRecords } from './csv-records.ts';
import { IMPORT_FORMATS } from './import-usage.ts';
import { entryLines } from './json-lines.ts';

/**
 * The files `snip link import` reads (docs/api.md §8.4), each turned into rows of the same shape:
 * - csv: `url[,slug,group,title,tags]`, a header line optional (then columns go by name, in any
 *   order, and Snip's own export — long_url, short_code — reads as well); tags split on `|` or `,`.
 * - shlink: the web client's "Export" (createdAt, domain, shortCode, shortUrl, longUrl, title,
 *   tags, visits; tags joined by `|`), or the CSV of Shlink's own importer (Long URL, Short code,
 *   Title, Tags); the header is required.
 * - yourls: the `yourls_url` table as CSV (keyword, url, title, timestamp, ip, clicks; header
 *   optional), or the Import/Export plugin's CSV (source, target, hits; source is `/keyword/`).
 * - kutt: the API's list `GET /api/v2/links` saved as JSON (`{"data": [{address, target,
 *   description, …}]}`, or the bare list).
 * A row that cannot be read is kept as malformed, with its line, so it is refused and the rest goes on.
 */

export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export function isImportFormat(value: string): value is ImportFormat {
  return (IMPORT_FORMATS as readonly string[]).includes(value);
}

/** One link the file asks for; empty cells are left out. */
export interface LinkRow {
  url: string | undefined;
  slug?: string;
  group?: string;
  title?: string;
  tags?: string[];
}

export type ImportRow = { line: number; link: LinkRow } | { line: number; malformed: string };

export interface ImportFile {
  /** Lines of the file, a header line included. */
  lines: number;
  /** The rows, produced anew on each call (the file is read and parsed once, into memory). */
  rows(): Iterable<ImportRow>;
}

type Field = keyof LinkRow;

/** Column names as written, lower-cased without spaces, dashes and underscores. */
const nameKey = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

const CSV_NAMES: Record<string, Field> = {
  url: 'url',
  longurl: 'url',
  slug: 'slug',
  shortcode: 'slug',
  group: 'group',
  title: 'title',
  tags: 'tags',
};
const CSV_POSITIONS: readonly Field[] = ['url', 'slug', 'group', 'title', 'tags'];
const SHLINK_NAMES: Record<string, Field> = {
  longurl: 'url',
  shortcode: 'slug',
  title: 'title',
  tags: 'tags',
};
const YOURLS_NAMES: Record<string, Field> = {
  url: 'url',
  target: 'url',
  keyword: 'slug',
  source: 'slug',
  title: 'title',
};
const YOURLS_POSITIONS: readonly Field[] = ['slug', 'url', 'title'];

function headerColumns(fields: readonly string[], names: Record<string, Field>): (Field | undefined)[] {
  return fields.map((field) => names[nameKey(field)]);
}

const looksLikeUrl = (field: string) => /^\s*https?:\/\//i.test(field);

/** The first record is a header when it names the URL column and holds no URL itself. */
function isHeader(fields: readonly string[], names: Record<string, Field>): boolean {
  return !fields.some(looksLikeUrl) && headerColumns(fields, names).some((field) => field === 'url');
}

function splitTags(value: string): string[] {
  return value
    .split(/[|,]/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** A record's fields by column: `columns` names the field of each (the header's, or the format's order). */
function rowOf(
  fields: readonly string[],
  columns: readonly (Field | undefined)[],
  strip?: (slug: string) => string,
): LinkRow {
  const link: LinkRow = { url: undefined };
  columns.forEach((field, index) => {
    const value = fields[index];
    if (field === undefined || value === undefined || value.trim() === '') return;
    if (field === 'tags') link.tags = splitTags(value);
    else if (field === 'slug') link.slug = strip ? strip(value.trim()) : value.trim();
    else link[field] = field === 'title' ? value : value.trim();
  });
  return link;
}

interface CsvLayout {
  names: Record<string, Field>;
  /** Without a header: the fixed order of the columns; undefined: a header is required. */
  positions?: readonly (Field | undefined)[];
  /** More fields than columns is an error (the csv format: unquoted commas among tags). */
  strict: boolean;
  strip?: (slug: string) => string;
  what: string;
}

const LAYOUTS: Record<Exclude<ImportFormat, 'kutt'>, CsvLayout> = {
  csv: { names: CSV_NAMES, positions: CSV_POSITIONS, strict: true, what: 'url,slug,group,title,tags' },
  shlink: { names: SHLINK_NAMES, strict: false, what: 'a header naming longUrl (or Long URL)' },
  yourls: {
    names: YOURLS_NAMES,
    positions: YOURLS_POSITIONS,
    strict: false,
    // The Import/Export plugin writes a keyword as a path: /keyword/.
    strip: (slug) => slug.replace(/^\/+|\/+$/g, ''),
    what: 'keyword,url,title,… or source,target,hits',
  },
};

function csvFile(text: string, layout: CsvLayout): ImportFile {
  const records = csvRecords(text);
  const first = records[0];
  const header = first !== undefined && 'fields' in first && isHeader(first.fields, layout.names);
  if (!header && !layout.positions) {
    throw new Refusal('300', `The file has no header line of ${layout.what}.`);
  }
  const columns = header ? headerColumns(first.fields, layout.names) : (layout.positions ?? []);
  const body = header ? records.slice(1) : records;
  return {
    lines: countLines(text),
    *rows() {
      for (const record of body) {
        if ('error' in record) {
          yield { line: record.line, malformed: `This line is not valid CSV: ${record.error}.` };
        } else if (layout.strict && record.fields.length > columns.length) {
          yield {
            line: record.line,
            malformed: `This line has ${record.fields.length} fields where ${columns.length} are expected (${header ? 'the header' : layout.what}); quote a field that holds commas.`,
          };
        } else {
          yield { line: record.line, link: rowOf(record.fields, columns, layout.strip) };
        }
      }
    },
  };
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

function kuttFile(source: string): ImportFile {
  let document: unknown;
  try {
    document = JSON.parse(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source);
  } catch (error) {
    throw new Refusal('300', `The file is not JSON (${error instanceof Error ? error.message : error}).`);
  }
  const bare = Array.isArray(document);
  const entries: unknown = bare ? document : (document as { data?: unknown } | null)?.data;
  if (!Array.isArray(entries)) {
    throw new Refusal(
      '300',
      'A Kutt export is the list of GET /api/v2/links: {"data": [...]}, or the list alone.',
    );
  }
  const lines = entryLines(source, bare ? undefined : 'data');
  return {
    lines: countLines(source),
    *rows() {
      for (const [index, entry] of entries.entries()) {
        const line = lines[index] ?? 1;
        const link = entry as Record<string, unknown> | null;
        if (typeof link !== 'object' || link === null || typeof link.target !== 'string') {
          yield { line, malformed: 'This entry has no target URL.' };
          continue;
        }
        yield {
          line,
          link: { url: link.target.trim(), slug: text(link.address)?.trim(), title: text(link.description) },
        };
      }
    },
  };
}

/** The file's rows as the format reads them; a file that is not of the format at all is refused (300). */
export function readImportFile(source: string, format: ImportFormat): ImportFile {
  return format === 'kutt' ? kuttFile(source) : csvFile(source, LAYOUTS[format]);
}

export { IMPORT_FORMATS };
