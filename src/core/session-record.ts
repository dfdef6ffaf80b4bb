/** A signed-in session as stored: its user, its CSRF token and when it ends. */
export interface SessionRecord {
  userId: number;
  /** The session's CSRF token, embedded in every form of the session's pages. */
  csrfToken: string;
  expiresAt: Date;
}
