/** A link's former codes on either dialect (docs/api.md §18): kept by a rename, never issued again. */
import type { Link } from '../../core/entities.ts';
import type { LinkStore } from '../../core/ports/store.ts';
import { LINK_COLUMNS, mapFirst, REDIRECT_LINK_COLUMNS, toLink } from './rows.ts';
import { q, type Script, type ScriptRunner } from './script.ts';

const LINK_OF_ALIAS =
  'WHERE id = (SELECT link_id FROM link_aliases WHERE domain_id = ? AND code = ?) AND deleted_at IS NULL';

export const ALIAS_SQL = {
  // The redirect's miss path only: a code no link has is looked up here once, then cached.
  linkOf: `SELECT ${LINK_COLUMNS} FROM links ${LINK_OF_ALIAS}`,
  // The same on an embedded store, of what the redirect reads.
  redirectLinkOf: `SELECT ${REDIRECT_LINK_COLUMNS} FROM links ${LINK_OF_ALIAS}`,
  taken: 'SELECT link_id FROM link_aliases WHERE domain_id = ? AND code = ?',
  dropOwn: 'DELETE FROM link_aliases WHERE domain_id = ? AND code = ? AND link_id = ?',
  latest: 'SELECT MAX(created_at) AS at FROM link_aliases WHERE link_id = ?',
  add: 'INSERT INTO link_aliases (domain_id, code, link_id, created_at) VALUES (?, ?, ?, ?)',
  recode: 'UPDATE links SET code = ? WHERE id = ?',
} as const;

/** A rename refused because the new code is another link's alias; thrown to roll the change back. */
export class AliasTaken extends Error {
  constructor(code: string) {
    super(`code ${code} is an alias of another link`);
  }
}

/** Whether the code is an alias on the domain: a code a create or rename must not take. */
export function* isAlias(domainId: number, code: string): Script<boolean> {
  return (yield q(ALIAS_SQL.taken, domainId, code)).length > 0;
}

/**
 * Gives a link a new code, its old one kept as its newest alias. Renaming back to one of its own
 * aliases takes that alias back as the code. A code another link has (or had) fails on
 * links_domain_code_unique, ending the script; one another link keeps as an alias throws AliasTaken.
 * The alias is looked up after the code is written: on PostgreSQL a concurrent rename that freed
 * the code by making it an alias has committed by then (the write waited for it in the unique
 * index), so the fresh snapshot of that read sees it.
 */
export function* renameCode(link: Pick<Link, 'id' | 'domainId' | 'code'>, to: string): Script<void> {
  if (to === link.code) return;
  yield q(ALIAS_SQL.dropOwn, link.domainId, to, link.id);
  // Strictly after the link's other aliases: "oldest first" holds for renames within one millisecond.
  const latest = Number((yield q(ALIAS_SQL.latest, link.id))[0]?.at ?? 0);
  yield q(ALIAS_SQL.add, link.domainId, link.code, link.id, Math.max(Date.now(), latest + 1));
  yield q(ALIAS_SQL.recode, to, link.id);
  if (yield* isAlias(link.domainId, to)) throw new AliasTaken(to);
}

/** Ids per statement of aliasesOf, padded as tagsOf pads them (a few statement texts for every size). */
const IDS_PER_READ = 1024;

function* linkOfAlias(domainId: number, code: string): Script<Link | undefined> {
  return mapFirst(yield q(ALIAS_SQL.linkOf, domainId, code), toLink);
}

function* aliasesOf(linkIds: readonly number[]): Script<Map<number, string[]>> {
  const aliases = new Map<number, string[]>();
  for (let start = 0; start < linkIds.length; start += IDS_PER_READ) {
    const part = linkIds.slice(start, start + IDS_PER_READ);
    const size = 2 ** Math.ceil(Math.log2(part.length));
    const padded = [...part, ...Array<number>(size - part.length).fill(part.at(-1) as number)];
    const rows = yield q(
      `SELECT link_id, code FROM link_aliases WHERE link_id IN (${padded.map(() => '?').join(', ')})
        ORDER BY created_at, code`,
      ...padded,
    );
    for (const row of rows) {
      const id = Number(row.link_id);
      const list = aliases.get(id) ?? [];
      list.push(String(row.code));
      aliases.set(id, list);
    }
  }
  return aliases;
}

export function aliasStore(runner: ScriptRunner): Pick<LinkStore, 'findLinkByAlias' | 'aliasesOf'> {
  return {
    findLinkByAlias: (domainId, code) => runner.read(linkOfAlias(domainId, code)),
    async aliasesOf(linkIds) {
      if (linkIds.length === 0) return new Map();
      return runner.read(aliasesOf(linkIds));
    },
  };
}
