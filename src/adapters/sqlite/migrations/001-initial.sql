-- Snip's initial schema. Times are integer epoch milliseconds.
-- Kept plain so the PostgreSQL mirror differs only in types (identity ids, BIGINT times,
-- BOOLEAN, BYTEA).

CREATE TABLE plans (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL CONSTRAINT plans_name_unique UNIQUE,
  api_access BOOLEAN NOT NULL,
  url_quota INTEGER NOT NULL CHECK (url_quota >= 0),
  rate_limit_per_hour INTEGER NOT NULL CHECK (rate_limit_per_hour >= 0)
);

CREATE TABLE accounts (
  id INTEGER PRIMARY KEY,
  -- stored lower-cased by the store, so the unique constraint is case-insensitive
  email TEXT NOT NULL CONSTRAINT accounts_email_unique UNIQUE,
  plan_id INTEGER NOT NULL REFERENCES plans (id),
  password_hash TEXT,
  -- live links held; kept by the store in the same transaction as each insert/delete,
  -- so the quota can be enforced by one conditional UPDATE
  link_count INTEGER NOT NULL DEFAULT 0 CHECK (link_count >= 0),
  created_at INTEGER NOT NULL
);

CREATE INDEX accounts_plan ON accounts (plan_id);

CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  prefix TEXT NOT NULL,
  -- SHA-256 of the key; the key itself is never stored
  hash BLOB NOT NULL CONSTRAINT api_keys_hash_unique UNIQUE,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);

-- at most one live key per account; also serves the live-key lookup
CREATE UNIQUE INDEX api_keys_one_live ON api_keys (account_id) WHERE revoked_at IS NULL;

CREATE TABLE groups (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  name TEXT NOT NULL,
  api_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  CONSTRAINT groups_account_api_id_unique UNIQUE (account_id, api_id)
);

CREATE TABLE links (
  id INTEGER PRIMARY KEY,
  -- unique over every row ever: deleted links keep their code forever
  code TEXT NOT NULL CONSTRAINT links_code_unique UNIQUE,
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  group_id INTEGER REFERENCES groups (id) ON DELETE SET NULL,
  long_url TEXT NOT NULL,
  normalized_url TEXT NOT NULL,
  -- hex SHA-256 of normalized_url
  url_hash TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  clicks INTEGER NOT NULL DEFAULT 0,
  bot_hits INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  deleted_at INTEGER
);

-- the duplicate rule: one live link per account and normalized URL
CREATE UNIQUE INDEX links_live_url ON links (account_id, url_hash) WHERE deleted_at IS NULL;

CREATE INDEX links_group ON links (group_id);
