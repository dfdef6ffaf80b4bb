import type { Account, Actor, Link } from '../../core/entities.ts';
import { type ApiErrorCode, isApiRefusal, Refusal, UnavailableError } from '../../core/errors.ts';
import { targetOrRefuse } from '../../core/link-checks.ts';
import type { CreateLinkAs, LinkDraft } from '../../core/ports/link-creator.ts';
import type { LinkStore } from '../../core/ports/store.ts';
import { isReservedPath, LINK_CODE_PATTERN } from '../../core/short-code.ts';
import type { TargetUrl } from '../../core/target-url.ts';
import type { ImportFile, ImportRow, LinkRow } from './operator-import-formats.ts';
import { type ImportGroupStore, importGroups } from './operator-import-groups.ts';
import { inOrder, StoppedAt } from './operator-import-order.ts';

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

type Outcome =
  | { kind: 'imported'; code: string; replaced?: { wanted: string; why: string } }
  | { kind: 'skipped'; code: string }
  | { kind: 'refused'; code: ApiErrorCode; reason: string };

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

/** A code from the file: free to keep, already this row's link, or to be replaced (and why). */
type SlugVerdict = { kind: 'free' } | { kind: 'there' } | { kind: 'replace'; why: string };

const number = (value: number) => value.toLocaleString('en-US');

export async function importLinks(
  deps: ImportDeps,
  account: Account,
  file: ImportFile,
  output: ImportOutput,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const now = deps.now ?? Date.now;
  const actor: Actor = { keyId: 0, accountId: account.id, plan: account.plan };
  const groups = importGroups(deps.store, account.id);

  async function slugVerdict(wanted: string, target: TargetUrl): Promise<SlugVerdict> {
    if (!LINK_CODE_PATTERN.test(wanted)) {
      return { kind: 'replace', why: 'does not fit Snip (3-64 of A-Z, a-z, 0-9, "_", "-")' };
    }
    if (isReservedPath(wanted)) return { kind: 'replace', why: 'is a path of Snip itself' };
    if (!(await deps.store.isCodeIssued(wanted))) return { kind: 'free' };
    const holder = await deps.store.findLinkOfAccount(account.id, wanted);
    return holder?.normalizedUrl === target.normalized
      ? { kind: 'there' }
      : { kind: 'replace', why: 'is taken' };
  }

  const imported = (link: Link, replaced?: { wanted: string; why: string }): Outcome => ({
    kind: 'imported',
    code: link.code,
    replaced,
  });

  async function create(row: LinkRow): Promise<Outcome> {
    // The url first, as creating a link checks it (302, 300): a refused row makes no group.
    if (row.url === undefined || row.url.trim() === '') throw new Refusal('302');
    const target = targetOrRefuse(row.url);
    const group = row.group === undefined ? undefined : await groups.resolve(row.group);
    const draft: LinkDraft = {
      url: row.url,
      group: group === undefined ? undefined : String(group.id),
      title: row.title,
      tags: row.tags,
      clientAddress: '',
    };
    const wanted = row.slug;
    if (wanted === undefined) return imported(await deps.createAs(actor, draft));
    const verdict = await slugVerdict(wanted, target);
    if (verdict.kind === 'there') return { kind: 'skipped', code: wanted };
    if (verdict.kind === 'replace')
      return imported(await deps.createAs(actor, draft), { wanted, why: verdict.why });
    try {
      return imported(await deps.createAs(actor, { ...draft, slug: wanted }));
    } catch (error) {
      // Another link took the code since it was found free.
      if (!(error instanceof Refusal && error.code === '313')) throw error;
      return imported(await deps.createAs(actor, draft), { wanted, why: 'is taken' });
    }
  }

  async function importRow(row: ImportRow): Promise<Outcome> {
    if ('malformed' in row) return { kind: 'refused', code: '300', reason: row.malformed };
    try {
      return await create(row.link);
    } catch (error) {
      const existing = error instanceof Refusal ? error.facts.existingCode : undefined;
      if (error instanceof Refusal && error.code === '305' && existing)
        return { kind: 'skipped', code: existing };
      if (isApiRefusal(error)) return { kind: 'refused', code: error.code, reason: error.message };
      throw error;
    }
  }

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
