-- Accounts people trust (docs/api.md §22, docs/adr/049): two-factor sign-in, a person's sessions
-- listed, and a change of email confirmed by a link to the new address.
--
-- The TOTP secret, sealed with AES-256-GCM under a key in `secrets` (never shown again); NULL while
-- two-factor sign-in is off. The last time step whose code was taken, so no code is taken twice.
ALTER TABLE users ADD COLUMN totp_secret TEXT;
ALTER TABLE users ADD COLUMN totp_last_step BIGINT;
-- Ten single-use recovery codes per person, known only by their SHA-256 (hex).
CREATE TABLE recovery_codes (
  user_id BIGINT NOT NULL REFERENCES users (id),
  code_hash TEXT NOT NULL,
  used_at BIGINT,
  PRIMARY KEY (user_id, code_hash)
);
-- A session's browser and OS families ("Firefox on Linux"; never the user agent, never an
-- address) and when it was last seen, written at most once every few minutes.
ALTER TABLE sessions ADD COLUMN agent TEXT;
ALTER TABLE sessions ADD COLUMN last_seen_at BIGINT;
-- dialect: sqlite
CREATE TABLE email_changes (
  token_hash BLOB PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  new_email TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
-- dialect: postgres
CREATE TABLE email_changes (
  token_hash BYTEA PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users (id),
  new_email TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);
-- dialect: both
CREATE INDEX email_changes_user ON email_changes (user_id);
