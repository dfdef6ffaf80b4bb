-- Server-side sessions of the dashboard. The cookie holds a random id; only its SHA-256 is stored,
-- so a leaked table does not hand out sessions. Times are epoch milliseconds.

CREATE TABLE sessions (
  id_hash BYTEA PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id),
  csrf_token TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);

-- ending every session of an account (after a password change)
CREATE INDEX sessions_account ON sessions (account_id);
-- the periodic sweep of expired sessions
CREATE INDEX sessions_expires ON sessions (expires_at);
