import { createHash, randomBytes } from 'node:crypto';
import type { SessionStore } from '../../core/ports/store.ts';

/** Dashboard sessions: a random id in the cookie, its SHA-256 and a CSRF token in the store. */

export interface StartedSession {
  /** The cookie value; never stored. */
  id: string;
  csrfToken: string;
  expiresAt: Date;
}

export interface ActiveSession {
  idHash: Buffer;
  userId: number;
  csrfToken: string;
  expiresAt: Date;
}

/** A session's last-seen time is written at most this often: a write per request would cost more than it tells. */
export const SEEN_EVERY_MS = 5 * 60_000;

export interface SessionOptions {
  store: SessionStore;
  ttlMs: number;
  now?: () => number;
}

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
const SWEEP_EVERY_MS = 3_600_000;

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionId(id: string): Buffer {
  return createHash('sha256').update(id, 'utf8').digest();
}

export function sessionService(options: SessionOptions) {
  const { store } = options;
  const now = options.now ?? Date.now;
  let lastSweep = 0;

  /** Expired rows are swept now and then as sessions start, so the table stays small without a timer. */
  async function sweep(at: number): Promise<void> {
    if (at - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = at;
    await store.deleteExpiredSessions(new Date(at));
  }

  return {
    /** A new session; `agent` is its browser and OS families ("Firefox on Linux"), never the user agent. */
    async start(userId: number, agent?: string): Promise<StartedSession> {
      const at = now();
      await sweep(at);
      const session = {
        id: randomToken(),
        csrfToken: randomToken(),
        expiresAt: new Date(at + options.ttlMs),
      };
      await store.createSession(hashSessionId(session.id), {
        userId,
        csrfToken: session.csrfToken,
        expiresAt: session.expiresAt,
        agent: agent ?? null,
      });
      return session;
    },

    /** The live session a cookie names, if any; anything malformed is simply no session. */
    async resume(id: string | undefined): Promise<ActiveSession | undefined> {
      if (id === undefined || !SESSION_ID.test(id)) return undefined;
      const idHash = hashSessionId(id);
      const at = now();
      const record = await store.findSession(idHash, new Date(at));
      if (!record) return undefined;
      if (record.lastSeenAt && at - record.lastSeenAt.getTime() >= SEEN_EVERY_MS) {
        await store.touchSession(idHash, new Date(at));
      }
      const { userId, csrfToken, expiresAt } = record;
      return { idHash, userId, csrfToken, expiresAt };
    },

    async end(id: string | undefined): Promise<void> {
      if (id !== undefined && SESSION_ID.test(id)) await store.deleteSession(hashSessionId(id));
    },

    /** After a password change: every other session of the user ends at once. */
    async endOthers(userId: number, keep: ActiveSession): Promise<void> {
      await store.deleteSessionsOfUser(userId, keep.idHash);
    },
  };
}

export type SessionService = ReturnType<typeof sessionService>;

/** How a page names a session in its forms: neither the cookie's id nor the hash the store keys it by. */
export function sessionHandle(idHash: Buffer): string {
  return createHash('sha256').update('snip-session-handle:').update(idHash).digest('base64url').slice(0, 22);
}
