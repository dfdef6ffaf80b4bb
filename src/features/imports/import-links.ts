import type { Account } from '../../core/entities.ts';
import { type ApiErrorCode, UnavailableError } from '../../core/errors.ts';
import type { LinkStore } from '../../core/ports/store.ts';
import type { CreateLinkAs } from '../links/index.ts';
import type { ImportFile, ImportRow } from './import-formats.ts';
import { type ImportGroupStore, importGroups } from './import-groups.ts';
import { type Outcome, rowImporter } from './import-row.ts';
import { inOrder, StoppedAt } from './in-order.ts';

/**
 * `snip link import` (docs/api.md §8.4): every row of a file is created through the checks of the
 * API (the create service's `createAs`, which spends no hourly window), in the account's quota.
 * A row whose URL the account already links is "already there", so running an import again creates
 * nothing. A code from the file becomes the link's slug when it fits and is free; otherwise a fresh
 * code is drawn and the row's line says so. Rows are worked on a few at a time (inspection waits on
 * the network) and reported in the file's order.
 */

export interface ImportDeps {
  store: ImportGroupStore & Pick<LinkStore, 'isCodeIssued' | 'findLinkOfAccount'>;
  createAs: CreateLinkAs;
  now?: () => number;
}

export interface ImportOutput {
  /** A row that was refused, was there already, or was imported under another code than the file's. */
  row(text: string): void;
  /** How far a long import has got. */
  progress(text: string): void;
}

export interface ImportOptions {
  /** Rows worked on at once. */
  concurrency?: number;
  progressEveryMs?: number;
}

export const IMPORT_CONCURRENCY = 8;
export const PROGRESS_EVERY_MS = 3000;

export interface ImportSummary {
  rows: number;
  lines: number;
  imported: number;
  /** Rows already there (the account links their URL, or holds their code for it). */
  skipped: number;
  refused: number;
  codesReplaced: number;
  groupsCreated: readonly string[];
  quotaReached: boolean;
  refusals: { line: number; code: ApiErrorCode; error: string }[];
  replaced: { line: number; wanted: string; shortCode: string }[];
}

const number = (value: number) => value.toLocaleString('en-US');

export async function importLinks(
  deps: ImportDeps,
  account: Account,
  file: ImportFile,
  output: ImportOutput,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const now = deps.now ?? Date.now;
  const groups = importGroups(deps.store, account.id);

  const importRow = rowImporter({ ...deps, groups }, account);

  const summary: ImportSummary = {
    rows: 0,
    lines: file.lines,
    imported: 0,
    skipped: 0,
    refused: 0,
    codesReplaced: 0,
    groupsCreated: [],
    quotaReached: false,
    refusals: [],
    replaced: [],
  };
  const every = options.progressEveryMs ?? PROGRESS_EVERY_MS;
  let lastProgress = now();
  let lastLine = 0;
  let totalRows: number | undefined;

  function take(row: ImportRow, outcome: Outcome): void {
    summary.rows += 1;
    lastLine = row.line;
    if (outcome.kind === 'refused') {
      summary.refused += 1;
      summary.quotaReached ||= outcome.code === '304';
      summary.refusals.push({ line: row.line, code: outcome.code, error: outcome.reason });
      output.row(`line ${row.line}: ${outcome.code} ${outcome.reason}`);
    } else if (outcome.kind === 'skipped') {
      summary.skipped += 1;
      output.row(`line ${row.line}: already imported as ${outcome.code}`);
    } else {
      summary.imported += 1;
      if (outcome.replaced) {
        const { wanted, why } = outcome.replaced;
        summary.codesReplaced += 1;
        summary.replaced.push({ line: row.line, wanted, shortCode: outcome.code });
        output.row(`line ${row.line}: imported as ${outcome.code}; the code "${wanted}" ${why}`);
      }
    }
    if (now() - lastProgress >= every) {
      lastProgress = now();
      totalRows ??= count(file.rows());
      output.progress(
        `${number(summary.rows)} of ${number(totalRows)} rows done (line ${number(row.line)} of ${number(file.lines)}): ${number(summary.imported)} imported, ${number(summary.skipped)} already there, ${number(summary.refused)} refused…`,
      );
    }
  }

  try {
    await inOrder(file.rows(), options.concurrency ?? IMPORT_CONCURRENCY, importRow, take);
  } catch (error) {
    if (!(error instanceof StoppedAt)) throw error;
    const where = lastLine === 0 ? 'before its first row' : `after line ${lastLine}`;
    throw new UnavailableError(
      `The import stopped ${where} (${error.message}). Up to there: ${summary.imported} imported, ${summary.skipped} already there, ${summary.refused} refused. Run the same command again to go on: rows already imported are skipped.`,
      5,
      { cause: error.cause },
    );
  }
  summary.groupsCreated = groups.created();
  return summary;
}

function count(rows: Iterable<unknown>): number {
  let total = 0;
  for (const _ of rows) total += 1;
  return total;
}
