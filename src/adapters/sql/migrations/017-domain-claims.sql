-- snip:rebuilds-tables (migrate.ts runs this file with foreign keys off and checks them before commit)
-- Domains claimed by several workspaces (docs/api.md §12): an unverified domain is a workspace's
-- claim on a host and holds it for no one; the first workspace to verify the host wins. A host is
-- unique among verified domains only, removed ones included: the one verified row of a host holds
-- its code space, taken back whenever the host is verified again. A workspace claims a host once.
-- dialect: sqlite
-- SQLite cannot drop the host's UNIQUE constraint: the table is rebuilt with the same ids, so
-- every link keeps its domain.
CREATE TABLE domains_new (
  id INTEGER PRIMARY KEY,
  -- ASCII form (punycode, lower case, no port or trailing dot); '' for the default domain
  host TEXT NOT NULL,
  -- the workspace that added it; NULL for the default and shared domains
  workspace_id INTEGER REFERENCES workspaces (id),
  shared BOOLEAN NOT NULL DEFAULT 0,
  verification_token TEXT NOT NULL,
  verified_at INTEGER,
  https BOOLEAN NOT NULL DEFAULT 1,
  root_redirect TEXT,
  not_found_redirect TEXT,
  created_at INTEGER NOT NULL,
  -- a removed domain keeps its row while links (deleted ones) hold codes on it
  deleted_at INTEGER
);

INSERT INTO domains_new (id, host, workspace_id, shared, verification_token, verified_at, https,
    root_redirect, not_found_redirect, created_at, deleted_at)
  SELECT id, host, workspace_id, shared, verification_token, verified_at, https,
    root_redirect, not_found_redirect, created_at, deleted_at
  FROM domains;

DROP TABLE domains;
ALTER TABLE domains_new RENAME TO domains;

CREATE INDEX domains_workspace ON domains (workspace_id) WHERE deleted_at IS NULL;
-- dialect: postgres
ALTER TABLE domains DROP CONSTRAINT domains_host_unique;
-- dialect: both
CREATE UNIQUE INDEX domains_verified_host ON domains (host) WHERE verified_at IS NOT NULL;
CREATE UNIQUE INDEX domains_claim ON domains (host, workspace_id) WHERE deleted_at IS NULL;
CREATE INDEX domains_host ON domains (host);
