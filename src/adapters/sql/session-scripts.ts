/**
 * SessionStore and SecretStore on either dialect: the dashboard's server-side sessions, keyed by the
 * cookie id's SHA-256, and the secrets every instance shares.
 */
import type { SecretStore, SessionStore } from '../../core/ports/store.ts';
import { mapFirst, SESSION_COLUMNS, toSession } from './rows.ts';
import { type Param, q, rowsOf, type Script, type ScriptRunner } from './script.ts';

/** A statement's rows, counted (those of a DELETE … RETURNING: the rows it removed). */
function* rowCount(sql: string, ...params: Param[]): Script<number> {
  return (yield q(sql, ...params)).length;
}

export function sessionStore({ read, write }: ScriptRunner): SessionStore {
  return {
    async createSession(idHash, session) {
      await write(
        rowCount(
          `INSERT INTO sessions (id_hash, user_id, csrf_token, created_at, expires_at, agent, last_seen_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)`,
          idHash,
          session.userId,
          session.csrfToken,
          Date.now(),
          session.expiresAt.getTime(),
          session.agent ?? null,
          Date.now(),
        ),
      );
    },

    async findSession(idHash, now) {
      const sql = `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id_hash = ? AND expires_at > ?`;
      return mapFirst(await read(rowsOf(sql, idHash, now.getTime())), toSession);
    },

    async deleteSession(idHash) {
      await write(rowCount('DELETE FROM sessions WHERE id_hash = ?', idHash));
    },

    async deleteSessionsOfUser(userId, keepIdHash) {
      await write(
        keepIdHash === undefined
          ? rowCount('DELETE FROM sessions WHERE user_id = ?', userId)
          : rowCount('DELETE FROM sessions WHERE user_id = ? AND id_hash <> ?', userId, keepIdHash),
      );
    },

    async listSessionsOfUser(userId, now) {
      const sql = `SELECT id_hash, agent, created_at, last_seen_at FROM sessions
        WHERE user_id = ? AND expires_at > ? ORDER BY created_at DESC, id_hash`;
      return (await read(rowsOf(sql, userId, now.getTime()))).map((row) => ({
        // SQLite hands a Uint8Array, PostgreSQL a Buffer: a copy is a Buffer either way.
        idHash: Buffer.from(row.id_hash as Uint8Array),
        agent: (row.agent as string | null) ?? null,
        createdAt: new Date(Number(row.created_at)),
        lastSeenAt: new Date(Number(row.last_seen_at ?? row.created_at)),
      }));
    },

    async deleteSessionOfUser(userId, idHash) {
      const sql = 'DELETE FROM sessions WHERE user_id = ? AND id_hash = ? RETURNING 1 AS gone';
      return (await write(rowCount(sql, userId, idHash))) > 0;
    },

    async touchSession(idHash, at) {
      await write(rowCount('UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?', at.getTime(), idHash));
    },

    // A row returned per session removed: its count is the answer on both dialects.
    deleteExpiredSessions: (now) =>
      write(rowCount('DELETE FROM sessions WHERE expires_at <= ? RETURNING 1 AS gone', now.getTime())),
  };
}

/** The first instance's candidate wins; the others, their insert doing nothing, read it. */
function* secret(name: string, candidate: Buffer): Script<Buffer> {
  yield q(
    'INSERT INTO secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
    name,
    candidate,
    Date.now(),
  );
  const [row] = yield q('SELECT value FROM secrets WHERE name = ?', name);
  // SQLite hands a Uint8Array, PostgreSQL a Buffer: a copy is a Buffer either way.
  return Buffer.from(row?.value as Uint8Array);
}

export function secretStore({ write }: ScriptRunner): SecretStore {
  return { secret: (name, candidate) => write(secret(name, candidate)) };
}
