import type { CsvDomain } from '../csv.ts';
import type { LinkPosition } from '../link-query.ts';

/** A page of a workspace's links as CSV rows (LinkExportStore), and what the rows need besides the links. */
export interface LinkCsvAsk {
  workspaceId: number;
  /** Only the links on this domain. */
  domainId?: number;
  /** The page after this position; the first page without. */
  after?: LinkPosition;
  /** Each group's API id by its id. */
  groups: ReadonlyMap<number, string>;
  /** The domains met so far; a page holding another answers `missing` and is asked again with them. */
  domains: ReadonlyMap<number, CsvDomain>;
}

export type LinkCsvPage =
  /** The rows (core/csv.ts linkCsvLine), and where the next page starts; none after the last. */
  { csv: string; next?: LinkPosition } | { missing: number[] };

/**
 * The CSV export (GET /api/v1/links.csv): each page read and written where the store reads (on
 * SQLite a reader thread), asked for one at a time, so an export goes as fast as its client takes
 * it and stops when the client goes.
 */
export interface LinkExportStore {
  /** The workspace's live links newest first, one page of them as CSV rows. */
  exportLinksPage(ask: LinkCsvAsk): Promise<LinkCsvPage>;
}
