import { revenueText } from './analytics/conversion-figures.ts';
import type { Link } from './entities.ts';

/**
 * CSV downloads (RFC 4180, CRLF). A cell that a spreadsheet would run as a formula (starting with
 * =, +, -, @, tab or CR) gets a leading apostrophe: values such as referrer hosts and bot names come
 * from requests anyone can send.
 */

function cell(value: string | number): string {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(values: ReadonlyArray<string | number>): string {
  return `${values.map(cell).join(',')}\r\n`;
}

/** The columns of GET /api/v1/links.csv, in order. */
export const LINK_CSV_COLUMNS = [
  'short_code',
  'short_url',
  'long_url',
  'title',
  'group',
  'tags',
  'created_at',
  'expires_at',
  'clicks',
  'unique_visitors',
  'domain',
  'leads',
  'sales',
  'revenue',
] as const;

/** What a link's row shows of its domain: where its short URLs start (no trailing slash), its host. */
export interface CsvDomain {
  origin: string;
  host: string;
}

/** A link's row of the export: the fields of its resource (docs/api.md §7.2) that a sheet can hold. */
export function linkCsvLine(
  link: Pick<
    Link,
    | 'code'
    | 'longUrl'
    | 'title'
    | 'createdAt'
    | 'expiresAt'
    | 'clicks'
    | 'uniqueVisitors'
    | 'leads'
    | 'sales'
    | 'revenue'
  >,
  domain: CsvDomain,
  /** The API id of the link's group, '' when it has none. */
  group: string,
  tags: readonly string[],
): string {
  return csvLine([
    link.code,
    `${domain.origin}/${link.code}`,
    link.longUrl,
    link.title,
    group,
    tags.join(','),
    link.createdAt.toISOString(),
    link.expiresAt?.toISOString() ?? '',
    String(link.clicks),
    String(link.uniqueVisitors),
    domain.host,
    String(link.leads),
    String(link.sales),
    // As the stats CSV writes it: `EUR:4900 USD:100`, minor units, by currency; '' when none.
    revenueText(link.revenue),
  ]);
}
