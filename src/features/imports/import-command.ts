import { type FileHandle, open, readFile } from 'node:fs/promises';
import { Refusal } from '../../core/errors.ts';
import type { Store } from '../../core/ports/store.ts';
import { type Command, UsageError } from '../../terminal/command.ts';
import type { CreateLinkAs } from '../links/index.ts';
import { personalWorkspace } from '../workspaces/index.ts';
import { IMPORT_FORMATS, isImportFormat, readImportFile } from './import-formats.ts';
import { importLinks } from './import-links.ts';

/** `snip link import <email> <file>` (docs/api.md §8.4). */

/** The report's file, opened before the import starts: one it cannot write is refused at once. */
async function reportFile(path: string) {
  let file: FileHandle;
  try {
    file = await open(path, 'w');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : error);
    throw new Refusal('300', `Cannot write ${path} (${reason}).`);
  }
  const stream = file.createWriteStream();
  return {
    write: (text: string) => stream.write(text),
    close: () => new Promise<void>((resolve) => stream.end(resolve)),
  };
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : error);
    throw new Refusal('300', `Cannot read ${path} (${reason}).`);
  }
}

export const IMPORT_FLAGS = {
  format: { type: 'string' },
  inspect: { type: 'boolean' },
  report: { type: 'string' },
} as const;

/** What the process gives `link import`. */
export interface ImportCliDeps {
  store: Store;
  /**
   * Runs `use` with the create service of the API acting for an account without a key or window;
   * `inspect: false` accepts every target without fetching it.
   */
  withLinkCreator<T>(options: { inspect: boolean }, use: (createAs: CreateLinkAs) => Promise<T>): Promise<T>;
}

const LINK_IMPORT: Command<typeof IMPORT_FLAGS, ImportCliDeps> = {
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
  run: async (ctx) => {
    const [email = '', path = ''] = ctx.args;
    const format = ctx.values.format ?? 'csv';
    if (!isImportFormat(format)) {
      throw new UsageError(`--format takes ${IMPORT_FORMATS.join(', ')}, got "${format}"`);
    }
    const json = ctx.values.json === true;
    const account = await personalWorkspace(ctx.store, email);
    const file = readImportFile(await readText(path), format);
    const lines = json ? ctx.io.err : ctx.io.out;
    const report = ctx.values.report === undefined ? undefined : await reportFile(ctx.values.report);
    const summary = await ctx
      .withLinkCreator({ inspect: ctx.values.inspect !== false }, (createAs) =>
        importLinks({ store: ctx.store, createAs }, account, file, {
          row: (text) => lines.write(`${text}\n`),
          report: report && ((text) => report.write(`${text}\n`)),
          progress: (text) => ctx.io.err.write(`${text}\n`),
        }),
      )
      .finally(() => report?.close());
    const totals = {
      imported: summary.imported,
      skipped: summary.skipped,
      refused: summary.refused,
      rows: summary.rows,
      lines: summary.lines,
      codes_replaced: summary.codesReplaced,
      groups_created: summary.groupsCreated,
      quota_reached: summary.quotaReached,
      refused_by_code: summary.refusedByCode,
    };
    if (!json) return totals;
    const replaced = summary.replaced.map(({ line, wanted, shortCode }) => ({
      line,
      wanted,
      short_code: shortCode,
    }));
    return { ...totals, refusals: summary.refusals, replaced };
  },
};

export const IMPORT_COMMANDS = { 'link import': LINK_IMPORT };
