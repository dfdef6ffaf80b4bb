/**
 * CSV of the link export (RFC 4180, CRLF). A field that a spreadsheet would run as a formula
 * (starting with =, +, -, @, tab or CR) gets a leading apostrophe: titles come from pages anyone
 * can write.
 */

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
] as const;

function field(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvRow(values: readonly string[]): string {
  return `${values.map(field).join(',')}\r\n`;
}
