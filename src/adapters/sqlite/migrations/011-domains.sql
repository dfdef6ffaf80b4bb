-- snip:rebuilds-tables (migrate.ts runs this file with foreign keys off and checks them before commit)
-- Domains (docs/api.md §12): every domain has its own code space. Row 0 is the default domain
-- (BASE_URL's host, whatever it is configured to: its host column stays empty) and holds its
-- settings; every existing link lands on it, nothing else changes for them.

CREATE TABLE domains (
  id INTEGER PRIMARY KEY,
  -- ASCII form (punycode, lower case, no port or trailing dot); '' for the default domain
  host TEXT NOT NULL CONSTRAINT domains_host_unique UNIQUE,
  -- the workspace that added it; NULL for the default and shared domains
  workspace_id INTEGER REFERENCES workspaces (id),
  shared BOOLEAN NOT NULL DEFAULT 0,
  verification_token TEXT NOT NULL,
  verified_at INTEGER,
  https BOOLEAN NOT NULL DEFAULT 1,
  root_redirect TEXT,
  not_found_redirect TEXT,
  created_at INTEGER NOT NULL,
  -- a removed domain keeps its row while links (deleted ones) hold codes on it; adding it again revives it
  deleted_at INTEGER
);

CREATE INDEX domains_workspace ON domains (workspace_id) WHERE deleted_at IS NULL;

INSERT INTO domains (id, host, shared, verification_token, verified_at, https, created_at)
  VALUES (0, '', 1, '', 0, 0, 0);

-- The code's uniqueness moves from the whole table to each domain: the table is rebuilt (SQLite
-- cannot drop a constraint) with the same ids, so every child row keeps its link.
CREATE TABLE links_new (
  id INTEGER PRIMARY KEY,
  -- unique per domain over every row ever: deleted links keep their code forever
  code TEXT NOT NULL,
  domain_id INTEGER NOT NULL DEFAULT 0 REFERENCES domains (id),
  account_id INTEGER NOT NULL REFERENCES workspaces (id),
  group_id INTEGER REFERENCES groups (id) ON DELETE SET NULL,
  long_url TEXT NOT NULL,
  normalized_url TEXT NOT NULL,
  url_hash TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  clicks INTEGER NOT NULL DEFAULT 0,
  bot_hits INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  deleted_at INTEGER,
  updated_at INTEGER,
  expires_at INTEGER,
  max_clicks INTEGER,
  limit_used INTEGER NOT NULL DEFAULT 0,
  password_hash TEXT,
  rules TEXT,
  unique_visitors INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT links_domain_code_unique UNIQUE (domain_id, code)
);

INSERT INTO links_new (id, code, domain_id, account_id, group_id, long_url, normalized_url, url_hash,
    title, clicks, bot_hits, created_at, deleted_at, updated_at, expires_at, max_clicks, limit_used,
    password_hash, rules, unique_visitors)
  SELECT id, code, 0, account_id, group_id, long_url, normalized_url, url_hash,
    title, clicks, bot_hits, created_at, deleted_at, updated_at, expires_at, max_clicks, limit_used,
    password_hash, rules, unique_visitors
  FROM links;

DROP TABLE links;
ALTER TABLE links_new RENAME TO links;

-- the duplicate rule: one live link per account, domain and normalized URL
CREATE UNIQUE INDEX links_live_url ON links (account_id, domain_id, url_hash) WHERE deleted_at IS NULL;
CREATE INDEX links_group ON links (group_id);
CREATE INDEX links_account ON links (account_id, created_at) WHERE deleted_at IS NULL;
CREATE INDEX links_account_clicks ON links (account_id, clicks) WHERE deleted_at IS NULL;
