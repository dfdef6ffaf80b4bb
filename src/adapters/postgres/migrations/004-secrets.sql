-- Secrets every instance must share, made by the first one to start (see the SQLite file).

CREATE TABLE secrets (
  name TEXT PRIMARY KEY,
  value BYTEA NOT NULL,
  created_at BIGINT NOT NULL
);
