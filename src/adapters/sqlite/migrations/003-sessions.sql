-- Server-side sessions of signed-in account holders. The cookie carries a random id; only its
-- SHA-256 is kept here, so a copy of the database cannot be used to sign in.
-- Kept plain so the PostgreSQL mirror differs only in types (BYTEA, BIGINT times).

CREATE TABLE sessions (
  id_hash BLOB PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  -- embedded in every form of the session's pages and compared on every POST
  csrf_token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);

-- ending every other session after a password change
CREATE INDEX sessions_account ON sessions (account_id);

-- sweeping expired sessions
CREATE INDEX sessions_expires ON sessions (expires_at);
