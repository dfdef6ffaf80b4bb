import { type CsvDomain, linkCsvLine } from '../../core/csv.ts';
import type { LinkCsvAsk, LinkCsvPage } from '../../core/ports/store.ts';
import { tagMap } from './link-change.ts';
import { linkListing, pageOf } from './link-list.ts';
import { toLink } from './rows.ts';
import { q, type Script } from './script.ts';

/** Links per page of an export: about 70 KB of CSV, a few milliseconds to read and write. */
export const EXPORT_PAGE = 500;

/**
 * One page of an export as CSV, written where it is read (on SQLite a reader thread, readers.ts):
 * the listing's page by keyset, its tags in one statement, then the rows. A page holding a domain
 * the ask does not describe answers its ids instead, to be asked again with them.
 */
export function* linkCsvPage(ask: LinkCsvAsk): Script<LinkCsvPage> {
  const query = { limit: EXPORT_PAGE, after: ask.after, counted: false, domainId: ask.domainId };
  const sql = linkListing(ask.workspaceId, query, () => '?');
  const { links, more } = pageOf((yield q(sql.select, ...sql.selectParams)).map(toLink), EXPORT_PAGE, false);
  const missing = [...new Set(links.map((link) => link.domainId))].filter((id) => !ask.domains.has(id));
  if (missing.length > 0) return { missing };
  const tags = links.length === 0 ? new Map<number, string[]>() : tagMap(yield tagsOfPage(links));
  let csv = '';
  for (const link of links) {
    const group = link.groupId === null ? '' : (ask.groups.get(link.groupId) ?? '');
    const domain = ask.domains.get(link.domainId) as CsvDomain;
    csv += linkCsvLine(link, domain, group, tags.get(link.id) ?? []);
  }
  const last = links.at(-1);
  return more && last ? { csv, next: { value: last.createdAt.getTime(), id: last.id } } : { csv };
}

/** The page's tags: the ids padded to a whole page (repeating the last), so one statement text serves every page. */
function tagsOfPage(links: ReadonlyArray<{ id: number }>) {
  const ids = links.map((link) => link.id);
  const padded = [...ids, ...Array<number>(EXPORT_PAGE - ids.length).fill(ids.at(-1) as number)];
  return q(
    `SELECT link_id, tag FROM link_tags WHERE link_id IN (${padded.map(() => '?').join(', ')})`,
    ...padded,
  );
}
