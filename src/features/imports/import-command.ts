import { type FileHandle, open, readFile } from 'node:fs/promises';
import { Refusal } from '../../core/errors.ts';
import type { AccountStore, GroupStore, LinkStore } from '../../core/ports/store.ts';
import { type CommandCode, UsageError } from '../../terminal/command.ts';
import type { CreateLinkAs } from '../links/index.ts';
import { personalWorkspace } from '../workspaces/index.ts';
import { IMPORT_FORMATS, isImportFormat, readImportFile } from './import-formats.ts';
import { importLinks } from './import-links.ts';
import type { IMPORT_FLAGS } from './import-usage.ts';

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

/** What the process gives `link import`. */
export interface ImportCliDeps {
  store: AccountStore & GroupStore & LinkStore;
  /**
   * Runs `use` with the create service of the API acting for an account without a key or window;
   * `inspect: false` accepts every target without fetching it.
   */
  withLinkCreator<T>(options: { inspect: boolean }, use: (createAs: CreateLinkAs) => Promise<T>): Promise<T>;
}

const LINK_IMPORT: CommandCode<typeof IMPORT_FLAGS, ImportCliDeps> = {
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
