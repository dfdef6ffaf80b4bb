/**
 * The tags of a workspace as things of their own, and its raw visits one by one: what the
 * compatibility APIs (docs/api.md §15) answer beside the links. Both adapters implement it on the
 * link_tags and click_events tables.
 */

/** A tag of the workspace's live links, with how many links carry it and what they were visited. */
export interface TagStat {
  tag: string;
  links: number;
  /** Human clicks of those links. */
  clicks: number;
  botHits: number;
}

export type RenameTagResult = 'renamed' | 'missing' | 'taken';

export interface TagStore {
  /** Every tag of the workspace's live links, sorted; only those containing `search` (any case) when given. */
  tagStats(workspaceId: number, search?: string): Promise<TagStat[]>;
  /** Renames a tag on every link of the workspace (live or not); `taken` when `to` is already one of its tags. */
  renameTag(workspaceId: number, from: string, to: string): Promise<RenameTagResult>;
  /** Takes the tags off every link of the workspace; how many links lost one. */
  deleteTags(workspaceId: number, tags: readonly string[]): Promise<number>;
}

/** Which raw visits (human clicks kept ANALYTICS_RETENTION_DAYS) of a workspace to read, newest first. */
export interface VisitQuery {
  /** Only this link's. */
  linkId?: number;
  /** Only those of links carrying this tag. */
  tag?: string;
  /** Only those of links on this domain. */
  domainId?: number;
  /** Epoch ms, inclusive; either end open. */
  from?: number;
  to?: number;
  limit: number;
  offset: number;
}

/** A raw visit as kept: no address, no user agent, nothing that identifies a visitor (docs/api.md §9.2). */
export interface StoredVisit {
  linkId: number;
  /** The link's code and domain, to name the short URL visited. */
  code: string;
  domainId: number;
  /** Epoch ms. */
  at: number;
  /** Host of the Referer; `direct` when none. */
  referrer: string;
  /** ISO 3166-1 alpha-2; `ZZ` when unknown. */
  country: string;
  device: string;
  os: string;
  browser: string;
  language: string;
  source: string;
}

export interface VisitListStore {
  /** One page of the workspace's raw visits matching the query, newest first, and how many match in all. */
  listVisits(workspaceId: number, query: VisitQuery): Promise<{ visits: StoredVisit[]; total: number }>;
}
