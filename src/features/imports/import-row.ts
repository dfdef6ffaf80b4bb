import type { Actor, Link, Workspace } from '../../core/entities.ts';
import { type ApiErrorCode, isApiRefusal, Refusal } from '../../core/errors.ts';
import { DEFAULT_DOMAIN_ID } from '../../core/link-key.ts';
import type { LinkStore } from '../../core/ports/store.ts';
import { isReservedPath, LINK_CODE_PATTERN } from '../../core/short-code.ts';
import { targetOrRefuse } from '../../core/target-checks.ts';
import type { TargetUrl } from '../../core/target-url.ts';
import type { CreateLinkAs, LinkDraft } from '../links/index.ts';
import type { ImportRow, LinkRow } from './import-formats.ts';
import type { ImportGroups } from './import-groups.ts';

/** One row of an import: created through the API's checks, found already there, or refused. */

export type Outcome =
  | { kind: 'imported'; code: string; replaced?: { wanted: string; why: string } }
  | { kind: 'skipped'; code: string }
  | { kind: 'refused'; code: ApiErrorCode; reason: string };

export interface RowDeps {
  store: Pick<LinkStore, 'isCodeIssued' | 'findLinkOfWorkspace'>;
  createAs: CreateLinkAs;
  groups: ImportGroups;
}

/** A code from the file: free to keep, already this row's link, or to be replaced (and why). */
type SlugVerdict = { kind: 'free' } | { kind: 'there' } | { kind: 'replace'; why: string };

export function rowImporter(deps: RowDeps, account: Workspace) {
  const actor: Actor = { keyId: 0, workspaceId: account.id, plan: account.plan };
  const { groups } = deps;

  async function slugVerdict(wanted: string, target: TargetUrl): Promise<SlugVerdict> {
    if (!LINK_CODE_PATTERN.test(wanted)) {
      return { kind: 'replace', why: 'does not fit Snip (3-64 of A-Z, a-z, 0-9, "_", "-")' };
    }
    if (isReservedPath(wanted)) return { kind: 'replace', why: 'is a path of Snip itself' };
    if (!(await deps.store.isCodeIssued(DEFAULT_DOMAIN_ID, wanted))) return { kind: 'free' };
    const holder = await deps.store.findLinkOfWorkspace(account.id, DEFAULT_DOMAIN_ID, wanted);
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

  return importRow;
}
