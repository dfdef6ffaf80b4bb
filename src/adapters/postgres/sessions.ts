/** SessionStore on PostgreSQL: the dashboard's server-side sessions, keyed by the id's SHA-256. */
import type { SessionStore } from '../../core/ports/store.ts';
import { mapFirst, SESSION_COLUMNS, toSession } from '../sql/rows.ts';
import { type Db, query } from './client.ts';

const CREATE_SESSION = `INSERT INTO sessions (id_hash, user_id, csrf_token, created_at, expires_at)
  VALUES ($1, $2, $3, $4, $5)`;
const FIND_SESSION = `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id_hash = $1 AND expires_at > $2`;

export function postgresSessionStore(db: Db): SessionStore {
  return {
    async createSession(idHash, session) {
      await query(db, CREATE_SESSION, [
        idHash,
        session.userId,
        session.csrfToken,
        Date.now(),
        session.expiresAt.getTime(),
      ]);
    },

    async findSession(idHash, now) {
      return mapFirst(await query(db, FIND_SESSION, [idHash, now.getTime()]), toSession);
    },

    async deleteSession(idHash) {
      await query(db, 'DELETE FROM sessions WHERE id_hash = $1', [idHash]);
    },

    async deleteSessionsOfUser(userId, keepIdHash) {
      if (keepIdHash === undefined) {
        await query(db, 'DELETE FROM sessions WHERE user_id = $1', [userId]);
      } else {
        await query(db, 'DELETE FROM sessions WHERE user_id = $1 AND id_hash <> $2', [userId, keepIdHash]);
      }
    },

    async deleteExpiredSessions(now) {
      return (await query(db, 'DELETE FROM sessions WHERE expires_at <= $1', [now.getTime()])).count;
    },
  };
}
