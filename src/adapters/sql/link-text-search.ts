import type { LinkFind } from '../../core/link-query.ts';
import { containsPattern } from './rows.ts';
import { q, type Script } from './script.ts';

/**
 * The list's search box as text (docs/api.md §18, docs/adr/040): a code prefix, or a substring of
 * the title, the long URL or a tag, case-insensitive — found from an index where the dialect has
 * one (migration 021) rather than by reading the workspace's links along the list's order:
 * PostgreSQL through pg_trgm's GIN indexes (its planner weighs them against the order's index),
 * SQLite through its FTS5 trigram table, whose matches are the candidates the listing starts from.
 */
export type TextIndex = 'pg_trgm' | 'fts5';

type Param = (value: number | string) => string;

/** Fewer characters make no trigram: FTS5 then matches nothing, so such text is read along the order. */
const TRIGRAM = 3;

/** What codes are made of, lowered (core/short-code.ts): other text is no code's prefix. */
const CODE_TEXT = /^[a-z0-9_-]+$/;

/** `text%` for LIKE, the wildcards and the escape character of the text taken literally. */
const prefixPattern = (text: string) => `${text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * A code prefix as a range of lowered codes, `[text, next)` where `next` ends in the character after
 * the text's last: exactly the codes that start with the text, in byte order (ASCII: no surrogates).
 */
function codePrefixRange(text: string): [string, string] | undefined {
  const lowered = text.toLowerCase();
  if (!CODE_TEXT.test(lowered)) return undefined;
  return [lowered, lowered.slice(0, -1) + String.fromCharCode(lowered.charCodeAt(lowered.length - 1) + 1)];
}

/** A quoted FTS5 string: the user's text taken literally, its quotes doubled (no operator, no column). */
const ftsPhrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** Whether SQLite reads this text from link_search (`textCandidates`). */
const fromFts5 = (index: TextIndex | undefined, text: string) =>
  index === 'fts5' && [...text].length >= TRIGRAM;

/** Whether the listing starts from this text's matches (`textCandidates`): an index for it each way. */
const fromIndex = (index: TextIndex | undefined, text: string) =>
  index !== undefined && [...text].length >= TRIGRAM;

/**
 * Past this many matches the text is read along the order, as before 021: a page then fills within
 * about 50 × links / matches rows (2,500 at 100,000 links), where starting from every match would
 * fetch and sort them all (a second or more for 100,000, on either store).
 */
export const TEXT_FEW = 2000;

/**
 * The statement counting the text's matches up to TEXT_FEW, when the text would read them: SQLite's
 * trigram matches (of any workspace), PostgreSQL's arms one after the other, stopped at the bound.
 */
export function textProbe(find: LinkFind | undefined, index: TextIndex | undefined, workspaceId: number) {
  const text = find && !find.address ? find.text.trim() : '';
  if (!fromIndex(index, text)) return undefined;
  if (index === 'fts5') {
    const sql = `SELECT COUNT(*) AS n FROM (SELECT 1 FROM link_search WHERE link_search MATCH ? LIMIT ${TEXT_FEW})`;
    return q(sql, ftsPhrase(text));
  }
  const params: Array<string | number> = [];
  const arms = pgArms(text, workspaceId, (value) => {
    params.push(value);
    return '?';
  });
  return q(`SELECT COUNT(*) AS n FROM (${arms.join(' UNION ALL ')} LIMIT ${TEXT_FEW}) AS m`, ...params);
}

/** The index the listing starts from: the text's own only when its matches are few. */
export function* textIndexFor(
  find: LinkFind | undefined,
  index: TextIndex | undefined,
  workspaceId: number,
): Script<TextIndex | undefined> {
  const probe = textProbe(find, index, workspaceId);
  if (!probe) return index;
  const [row] = yield probe;
  return Number(row?.n ?? 0) < TEXT_FEW ? index : undefined;
}

/** PostgreSQL: the text's candidates, an arm per index (the code range, each pg_trgm index). */
function pgArms(text: string, workspaceId: number, param: Param): string[] {
  const range = codePrefixRange(text);
  const ofWorkspace = () => `workspace_id = ${param(workspaceId)} AND deleted_at IS NULL`;
  const contains = containsPattern(text);
  const like = (column: string) => `lower(${column}) LIKE ${param(contains)} ESCAPE '\\'`;
  const collated = 'lower(code) COLLATE "C"';
  return [
    range
      ? `SELECT id FROM links WHERE ${ofWorkspace()} AND ${collated} >= ${param(range[0])} AND ${collated} < ${param(range[1])}`
      : undefined,
    `SELECT id FROM links WHERE ${ofWorkspace()} AND ${like('title')}`,
    `SELECT id FROM links WHERE ${ofWorkspace()} AND ${like('long_url')}`,
    `SELECT link_id FROM link_tags WHERE ${like('tag')}`,
  ].filter((arm): arm is string => arm !== undefined);
}

/**
 * The links to start from, as the listing's FROM — the text's matches and the code range, joined
 * to links by id — rather than the workspace's links along the order, filtered. SQLite: the trigram
 * table's matches; CROSS JOIN keeps that order (without statistics, which SQLite keeps none of
 * unless analysed, the planner would rather walk the workspace's index and probe the matches per
 * link). PostgreSQL: one arm per index, so each is read from its own index: its planner, which
 * prices `LIKE '%text%'` without the trigrams, would otherwise walk the order's index past every
 * link a short code-like text does not match (docs/adr/040). Undefined when the text is not read
 * from an index.
 */
export function textCandidates(
  text: string,
  workspaceId: number,
  index: TextIndex | undefined,
  param: Param,
): string | undefined {
  if (!fromIndex(index, text)) return undefined;
  if (index === 'pg_trgm') {
    return `(${pgArms(text, workspaceId, param).join(' UNION ')}) AS hit (hit_id) JOIN links ON links.id = hit.hit_id`;
  }
  const range = codePrefixRange(text);
  const matched = `SELECT rowid AS hit_id FROM link_search WHERE link_search MATCH ${param(ftsPhrase(text))}`;
  const coded = range
    ? ` UNION SELECT id FROM links WHERE workspace_id = ${param(workspaceId)} AND deleted_at IS NULL` +
      ` AND lower(code) >= ${param(range[0])} AND lower(code) < ${param(range[1])}`
    : '';
  return `(${matched}${coded}) AS hit CROSS JOIN links ON links.id = hit.hit_id`;
}

/**
 * The condition of the text, the same results whichever way it is read: on SQLite's candidates
 * (a trigram match folds case beyond ASCII and spans the joined tags) it decides as a scan would.
 */
export function textCondition(text: string, index: TextIndex | undefined, param: Param): string {
  // Each placeholder is pushed as it is written: in the order it appears in the statement.
  const like = (column: string, pattern: string) => `lower(${column}) LIKE ${param(pattern)} ESCAPE '\\'`;
  const contains = containsPattern(text);
  const range = index === undefined ? undefined : codePrefixRange(text);
  const collate = index === 'pg_trgm' ? ' COLLATE "C"' : '';
  const code = () =>
    range
      ? `(lower(code)${collate} >= ${param(range[0])} AND lower(code)${collate} < ${param(range[1])})`
      : undefined;
  if (index === 'pg_trgm') {
    // ARRAY(…) is computed once and `id = ANY` is a look-up of the primary key: each term has an
    // index, so the planner may OR their bitmaps instead of filtering links along the order.
    const terms = [
      code(),
      like('title', contains),
      like('long_url', contains),
      `links.id = ANY (ARRAY(SELECT t.link_id FROM link_tags t WHERE ${like('t.tag', contains)}))`,
    ];
    return `(${terms.filter(Boolean).join(' OR ')})`;
  }
  if (fromFts5(index, text)) {
    const terms = [code(), like('title', contains), like('long_url', contains)];
    terms.push(
      `EXISTS (SELECT 1 FROM link_tags t WHERE t.link_id = links.id AND ${like('t.tag', contains)})`,
    );
    return `(${terms.filter(Boolean).join(' OR ')})`;
  }
  const terms = [like('code', prefixPattern(text)), like('title', contains), like('long_url', contains)];
  terms.push(`links.id IN (SELECT t.link_id FROM link_tags t WHERE ${like('t.tag', contains)})`);
  return `(${terms.join(' OR ')})`;
}
