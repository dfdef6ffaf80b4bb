-- Operator console and abuse (docs/api.md §13): links an operator disabled, suspended workspaces
-- and users, host blocklists, visitors' reports and the audit log.

-- A disabled link answers 410 and its owner cannot enable it again.
ALTER TABLE links ADD COLUMN disabled_at INTEGER;
ALTER TABLE links ADD COLUMN disabled_reason TEXT;
-- A suspended workspace's links answer 410 and its keys 303; a suspended user cannot sign in.
ALTER TABLE workspaces ADD COLUMN suspended_at INTEGER;
ALTER TABLE workspaces ADD COLUMN suspended_reason TEXT;
ALTER TABLE users ADD COLUMN suspended_at INTEGER;

-- The operator's search across every workspace: by code on any domain, by target host or URL
-- prefix (ranges over the normalized URL: scheme and host lower case).
CREATE INDEX links_code ON links (code);
CREATE INDEX links_normalized_url ON links (normalized_url);

CREATE TABLE blocklists (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  -- the address it is refreshed from (BLOCKLIST_URLS); NULL: imported from a file or added by hand
  source TEXT,
  rule_count INTEGER NOT NULL DEFAULT 0,
  -- lines of its last import that were not rules
  skipped INTEGER NOT NULL DEFAULT 0,
  -- an import writes a new generation beside the live one and swaps them in one short transaction
  live BOOLEAN NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE UNIQUE INDEX blocklists_live_name ON blocklists (name) WHERE live;

CREATE TABLE blocklist_rules (
  id INTEGER PRIMARY KEY,
  list_id INTEGER NOT NULL REFERENCES blocklists (id),
  -- ASCII form (core/blocklist-format.ts)
  host TEXT NOT NULL,
  -- the host's subdomains too
  subdomains BOOLEAN NOT NULL
);

CREATE INDEX blocklist_rules_list ON blocklist_rules (list_id, host);
CREATE INDEX blocklist_rules_host ON blocklist_rules (host);

-- Raised by every change of any list (rules) and every takedown (a link disabled or enabled, a
-- workspace or user suspended or resumed): instances poll it and read again what moved.
CREATE TABLE abuse_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  rules_version INTEGER NOT NULL,
  takedowns_version INTEGER NOT NULL
);
INSERT INTO abuse_state (id, rules_version, takedowns_version) VALUES (1, 0, 0);

CREATE TABLE reports (
  id INTEGER PRIMARY KEY,
  created_at INTEGER NOT NULL,
  -- the short URL as reported, and the link it named when it was made
  url TEXT NOT NULL,
  link_id INTEGER REFERENCES links (id),
  reason TEXT NOT NULL,
  comment TEXT NOT NULL,
  -- the reporter's, when they gave one; never their address
  email TEXT,
  resolved_at INTEGER,
  -- disable | suspend | block | dismiss
  resolution TEXT,
  resolved_by INTEGER REFERENCES users (id)
);

CREATE INDEX reports_open ON reports (id) WHERE resolved_at IS NULL;

CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  -- the user who acted; NULL: the operator's command line
  actor_id INTEGER REFERENCES users (id),
  -- their email as it was then, or "cli"
  actor TEXT NOT NULL,
  -- the workspace concerned; NULL: the instance as a whole
  workspace_id INTEGER REFERENCES workspaces (id),
  action TEXT NOT NULL,
  target TEXT NOT NULL,
  -- JSON of what changed, before and after; never a secret
  before_value TEXT,
  after_value TEXT
);

CREATE INDEX audit_log_workspace ON audit_log (workspace_id, id);
