import type { CommandUsage } from '../../terminal/command.ts';

export const IMPORT_FORMATS = ['csv', 'shlink', 'yourls', 'kutt'] as const;

export const IMPORT_FLAGS = {
  format: { type: 'string' },
  inspect: { type: 'boolean' },
  report: { type: 'string' },
} as const;

export const IMPORT_USAGE: Readonly<Record<string, CommandUsage>> = {
  'link import': {
    synopsis: `<email> <file> [--format ${IMPORT_FORMATS.join('|')}] [--no-inspect] [--report FILE]`,
    about: "brings links into the account from a CSV file or another shortener's export",
    details: `  --format csv      (default) url[,slug,group,title,tags]; a header line is optional and then
                      names the columns in any order (Snip's own export, long_url and short_code,
                      reads too); tags are separated by "|", or by "," inside a quoted field
    --format shlink   the web client's CSV export (shortCode, longUrl, title, tags joined by "|")
    --format yourls   the yourls_url table as CSV (keyword, url, title, …; header optional), or the
                      Import/Export plugin's CSV (source, target, hits)
    --format kutt     the JSON of GET /api/v2/links ({"data": [{address, target, description}]})
    --no-inspect      does not fetch the targets (no 306-311 checks; titles only from the file)
    --report FILE     writes every row line to FILE (created or replaced), however many there are
  Every row passes the checks of creating a link through the API (302, 300, 312, 310, 305, 304 and,
  unless --no-inspect, 306-311); imports spend no hourly window and stop at the plan's URL quota
  (304 on every further row). A code from the file is kept as the slug when it fits (3-64 of A-Z a-z
  0-9 _ -, not a path of Snip) and is free; otherwise a fresh code is drawn and the line says so. A
  group is found by ID, API identifier or name, or created by name. A title given wins over the page's.
  Prints a line for each row that was refused ("line 17: 310 …", lines counted from 1, a header
  included), already there ("already imported as CODE") or given another code — the first 20 of each
  refusal code and of each other kind; every one with --report — then the totals and the refused rows
  counted by code. Running the same
  import again creates nothing: every row is already there. A progress line goes to stderr every few
  seconds. If the store fails midway, the import stops, says after which line, and exits 69; run it
  again to go on. --json prints {imported, skipped, refused, rows, lines, codes_replaced,
  groups_created, quota_reached, refused_by_code: {code: count}, refusals: [{line, code, error}] (the
  first 20 of each code), replaced: [{line, wanted, short_code}] (the first 20)} and writes the row
  lines to stderr.`,
    flags: ['format', 'inspect', 'report'],
    args: 2,
  },
};
