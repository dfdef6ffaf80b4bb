/** One visitor seen on a link: whom the sets of a day are asked about. */
export interface VisitorMember {
  linkId: number;
  workspaceId: number;
  /** The visitor id: HMAC(secret of the day, address + user agent), 16 hex digits. */
  visitor: string;
}

export interface FirstSeen {
  /** First time today on this link. */
  ofLink: boolean;
  /** First time today on any link of the account. */
  ofWorkspace: boolean;
}

/**
 * The unique visitors of each UTC day (docs/api.md §9.2, docs/adr/018): the day's secret and the
 * sets of visitor ids seen per link and per account. Kept in memory on one instance and in Redis
 * for several, for that day only; nothing of it is ever written to the store.
 */
export interface Visitors {
  /** The day's random secret (32 bytes), the same on every instance sharing this port. */
  secretOf(day: string): Promise<Buffer>;
  /** Adds the members to the day's sets and says, for each in order, where it was new. */
  add(day: string, members: readonly VisitorMember[]): Promise<FirstSeen[]>;
}
