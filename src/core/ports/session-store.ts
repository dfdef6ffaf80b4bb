import type { SessionRecord, SessionSummary } from '../entities.ts';

/** Server-side sessions; the cookie holds a random id, the store only its SHA-256. */
export interface SessionStore {
  createSession(idHash: Buffer, session: SessionRecord): Promise<void>;
  /** The session if it exists and has not expired at `now`. */
  findSession(idHash: Buffer, now: Date): Promise<SessionRecord | undefined>;
  deleteSession(idHash: Buffer): Promise<void>;
  /** Ends every session of the user but the one given (after a password change or reset). */
  deleteSessionsOfUser(userId: number, keepIdHash?: Buffer): Promise<void>;
  /** The user's live sessions at `now`, newest first (Account Settings lists them). */
  listSessionsOfUser(userId: number, now: Date): Promise<SessionSummary[]>;
  /** Ends one session of the user: whether it was theirs. */
  deleteSessionOfUser(userId: number, idHash: Buffer): Promise<boolean>;
  /** Notes when the session was last seen. */
  touchSession(idHash: Buffer, at: Date): Promise<void>;
  deleteExpiredSessions(now: Date): Promise<number>;
}
