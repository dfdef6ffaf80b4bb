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
