import type { Workspace } from '../../core/entities.ts';
import { UnavailableError } from '../../core/errors.ts';
import type { LinkStore } from '../../core/ports/store.ts';
import type { CreateLinkAs } from '../links/index.ts';
import type { ImportFile } from './import-formats.ts';
import { type ImportGroupStore, importGroups } from './import-groups.ts';
import { rowImporter } from './import-row.ts';
import { type ImportOptions, type ImportOutput, type ImportSummary, importTally } from './import-tally.ts';
import { inOrder, StoppedAt } from './in-order.ts';

export type { ImportOptions, ImportOutput, ImportSummary };

/**
 * `snip link import` (docs/api.md §8.4): every row of a file is created through the checks of the
 * API (the create service's `createAs`, which spends no hourly window), in the account's quota.
 * A row whose URL the account already links is "already there", so running an import again creates
 * nothing. A code from the file becomes the link's slug when it fits and is free; otherwise a fresh
 * code is drawn and the row's line says so. Rows are worked on a few at a time (inspection waits on
 * the network) and reported in the file's order.
 */

export interface ImportDeps {
  store: ImportGroupStore & Pick<LinkStore, 'isCodeIssued' | 'findLinkOfWorkspace'>;
  createAs: CreateLinkAs;
  now?: () => number;
}

export const IMPORT_CONCURRENCY = 8;

export async function importLinks(
  deps: ImportDeps,
  account: Workspace,
  file: ImportFile,
  output: ImportOutput,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const now = deps.now ?? Date.now;
  const groups = importGroups(deps.store, account.id);

  const importRow = rowImporter({ ...deps, groups }, account);

  const tally = importTally(file, output, options, now);
  const { summary } = tally;

  try {
    await inOrder(file.rows(), options.concurrency ?? IMPORT_CONCURRENCY, importRow, tally.take);
  } catch (error) {
    if (!(error instanceof StoppedAt)) throw error;
    const where = tally.lastLine === 0 ? 'before its first row' : `after line ${tally.lastLine}`;
    throw new UnavailableError(
      `The import stopped ${where} (${error.message}). Up to there: ${summary.imported} imported, ${summary.skipped} already there, ${summary.refused} refused. Run the same command again to go on: rows already imported are skipped.`,
      5,
      { cause: error.cause },
    );
  }
  summary.groupsCreated = groups.created();
  return summary;
}
