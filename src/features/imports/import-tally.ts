import type { ApiErrorCode } from '../../core/errors.ts';
import type { ImportFile, ImportRow } from './import-formats.ts';
import type { Outcome } from './import-row.ts';

/** Rows of each refusal code, and of each other kind, printed and listed in the summary. */
export const SHOWN_PER_KIND = 20;
export const PROGRESS_EVERY_MS = 3000;

export interface ImportOutput {
  /**
   * A row that was refused, was there already, or was imported under another code than the file's:
   * the first SHOWN_PER_KIND of each code (or kind) only, so a file of a million refused rows prints
   * a page, not a million lines.
   */
  row(text: string): void;
  /** Every such row, however many (`--report FILE`). */
  report?(text: string): void;
  /** How far a long import has got. */
  progress(text: string): void;
}

export interface ImportOptions {
  /** Rows worked on at once. */
  concurrency?: number;
  progressEveryMs?: number;
}

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
  /** The first SHOWN_PER_KIND refusals of each code. */
  refusals: { line: number; code: ApiErrorCode; error: string }[];
  /** Every refused row, counted by code. */
  refusedByCode: Partial<Record<ApiErrorCode, number>>;
  /** The first SHOWN_PER_KIND rows given another code. */
  replaced: { line: number; wanted: string; shortCode: string }[];
}

/**
 * The running account of an import: its totals, the first rows of each kind (printed, and kept for
 * the summary), every row for the report, and a progress line every few seconds. What it keeps does
 * not grow with the file: a million refused rows are a count per code and twenty lines each.
 */

const number = (value: number) => value.toLocaleString('en-US');

export function importTally(
  file: ImportFile,
  output: ImportOutput,
  options: ImportOptions,
  now: () => number,
) {
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
    refusedByCode: {},
    replaced: [],
  };
  const shown = new Map<string, number>();
  /** Reports every row line, and prints the first SHOWN_PER_KIND of its kind. */
  const tell = (kind: string, text: string) => {
    output.report?.(text);
    const seen = (shown.get(kind) ?? 0) + 1;
    shown.set(kind, seen);
    if (seen <= SHOWN_PER_KIND) output.row(text);
    return seen <= SHOWN_PER_KIND;
  };
  const every = options.progressEveryMs ?? PROGRESS_EVERY_MS;
  let lastProgress = now();
  let totalRows: number | undefined;
  const tally = { summary, lastLine: 0, take };

  function take(row: ImportRow, outcome: Outcome): void {
    summary.rows += 1;
    tally.lastLine = row.line;
    if (outcome.kind === 'refused') {
      summary.refused += 1;
      summary.quotaReached ||= outcome.code === '304';
      summary.refusedByCode[outcome.code] = (summary.refusedByCode[outcome.code] ?? 0) + 1;
      if (tell(`refused ${outcome.code}`, `line ${row.line}: ${outcome.code} ${outcome.reason}`)) {
        summary.refusals.push({ line: row.line, code: outcome.code, error: outcome.reason });
      }
    } else if (outcome.kind === 'skipped') {
      summary.skipped += 1;
      tell('skipped', `line ${row.line}: already imported as ${outcome.code}`);
    } else {
      summary.imported += 1;
      if (outcome.replaced) {
        const { wanted, why } = outcome.replaced;
        summary.codesReplaced += 1;
        if (tell('replaced', `line ${row.line}: imported as ${outcome.code}; the code "${wanted}" ${why}`)) {
          summary.replaced.push({ line: row.line, wanted, shortCode: outcome.code });
        }
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

  return tally;
}

function count(rows: Iterable<unknown>): number {
  let total = 0;
  for (const _ of rows) total += 1;
  return total;
}
