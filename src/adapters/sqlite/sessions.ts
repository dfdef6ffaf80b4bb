/** SessionStore on SQLite: the cookie's id is known here only by its SHA-256. */
import type { SessionRecord } from '../../core/entities.ts';
import type { SessionStore } from '../../core/ports/store.ts';
import { mapRow, SESSION_COLUMNS, toSession } from '../sql/rows.ts';
import type { Connection } from './connection.ts';

const INSERT_SESSION = `INSERT INTO sessions (id_hash, user_id, csrf_token, created_at, expires_at)
  VALUES (?, ?, ?, ?, ?)`;
const FIND_SESSION = `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id_hash = ? AND expires_at > ?`;

export function sqliteSessionStore(conn: Connection): SessionStore {
  return {
    async createSession(idHash, session) {
      conn
        .stmt(INSERT_SESSION)
        .run(idHash, session.userId, session.csrfToken, Date.now(), session.expiresAt.getTime());
    },

    async findSession(idHash, now): Promise<SessionRecord | undefined> {
      return mapRow(conn.stmt(FIND_SESSION).get(idHash, now.getTime()), toSession);
    },

    async deleteSession(idHash) {
      conn.stmt('DELETE FROM sessions WHERE id_hash = ?').run(idHash);
    },

    async deleteSessionsOfUser(userId, keepIdHash) {
      if (keepIdHash === undefined) {
        conn.stmt('DELETE FROM sessions WHERE user_id = ?').run(userId);
      } else {
        conn.stmt('DELETE FROM sessions WHERE user_id = ? AND id_hash <> ?').run(userId, keepIdHash);
      }
    },

    async deleteExpiredSessions(now) {
      return Number(conn.stmt('DELETE FROM sessions WHERE expires_at <= ?').run(now.getTime()).changes);
    },
  };
}
