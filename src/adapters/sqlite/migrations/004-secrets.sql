-- Secrets every instance must share, made by the first one to start: e.g. the key that signs the
-- sign-in and sign-up forms' tokens. Generated at random, never derived from configuration.

CREATE TABLE secrets (
  name TEXT PRIMARY KEY,
  value BLOB NOT NULL,
  created_at INTEGER NOT NULL
);
