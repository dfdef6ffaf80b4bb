/** A signed-in session as stored: its user, its CSRF token and when it ends. */
export interface SessionRecord {
  userId: number;
  /** The session's CSRF token, embedded in every form of the session's pages. */
  csrfToken: string;
  expiresAt: Date;
  /** Browser and OS families as "Firefox on Linux" (never the user agent itself); null when unknown. */
  agent?: string | null;
  /** When the session was last seen (written at most once every few minutes); its start at first. */
  lastSeenAt?: Date;
}

/** One of a person's sessions as Account Settings lists it: no address, no user agent. */
export interface SessionSummary {
  idHash: Buffer;
  agent: string | null;
  createdAt: Date;
  lastSeenAt: Date;
}
