-- snip:rebuilds-tables (migrate.ts runs this file with foreign keys off and checks them before commit)
-- Workspaces, people and sign-in (docs/api.md §11). Every account becomes a user (same id, email
-- and password) and that user's personal workspace (same id, so every link, group, key, count and
-- analytics row, all keyed by account_id, carries over untouched). The child tables keep their
-- column name account_id: it now names the workspace (docs/adr/026).

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  -- stored lower-cased by the store, so the unique constraint is case-insensitive
  email TEXT NOT NULL CONSTRAINT users_email_unique UNIQUE,
  -- scrypt hash, or NULL for a user who signs in only through OIDC or has not set one
  password_hash TEXT,
  email_verified BOOLEAN NOT NULL DEFAULT 0,
  operator BOOLEAN NOT NULL DEFAULT 0,
  -- where /dashboard sends the user; no foreign key, a deleted workspace just falls back
  last_workspace_id INTEGER,
  created_at INTEGER NOT NULL
);

INSERT INTO users (id, email, password_hash, email_verified, operator, last_workspace_id, created_at)
  SELECT id, email, password_hash, 0, 0, id, created_at FROM accounts;

-- Renaming first points every child's foreign key at "workspaces"; the rebuilt table then takes
-- that name, the documented way to change a table's columns in SQLite.
ALTER TABLE accounts RENAME TO workspaces;

CREATE TABLE workspaces_new (
  id INTEGER PRIMARY KEY,
  -- the workspace's address: /w/<slug>
  slug TEXT NOT NULL CONSTRAINT workspaces_slug_unique UNIQUE,
  name TEXT NOT NULL,
  plan_id INTEGER NOT NULL REFERENCES plans (id),
  -- the user whose personal workspace this is; NULL for a team's
  personal_of INTEGER CONSTRAINT workspaces_personal_unique UNIQUE REFERENCES users (id),
  default_domain TEXT,
  link_count INTEGER NOT NULL DEFAULT 0 CHECK (link_count >= 0),
  key_count INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);

INSERT INTO workspaces_new (id, slug, name, plan_id, personal_of, link_count, key_count, created_at)
  SELECT id,
    replace(replace(replace(lower(substr(email, 1, instr(email, '@') - 1)), '.', '-'), '_', '-'), '+', '-')
      || '-' || id,
    email, plan_id, id, link_count, key_count, created_at
  FROM workspaces;

DROP TABLE workspaces;
ALTER TABLE workspaces_new RENAME TO workspaces;
CREATE INDEX workspaces_plan ON workspaces (plan_id);

CREATE TABLE memberships (
  workspace_id INTEGER NOT NULL REFERENCES workspaces (id),
  user_id INTEGER NOT NULL REFERENCES users (id),
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
  joined_at INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);

CREATE INDEX memberships_user ON memberships (user_id);

INSERT INTO memberships (workspace_id, user_id, role, joined_at) SELECT id, id, 'owner', created_at FROM users;

-- who made each key: removing a member revokes what they made; NULL: the operator
ALTER TABLE api_keys ADD COLUMN created_by INTEGER REFERENCES users (id);
UPDATE api_keys SET created_by = account_id;
-- the main key has every scope (docs/adr/015), those this release adds included
UPDATE api_keys SET scopes = 'links:create links:read links:write stats:read groups:write members:read members:write domains:write webhooks:write audit:read'
  WHERE main = 1;

-- sessions now sign in a user (the same ids as their accounts had)
CREATE TABLE sessions_new (
  id_hash BLOB PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  csrf_token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
INSERT INTO sessions_new (id_hash, user_id, csrf_token, created_at, expires_at)
  SELECT id_hash, account_id, csrf_token, created_at, expires_at FROM sessions;
DROP TABLE sessions;
ALTER TABLE sessions_new RENAME TO sessions;
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

CREATE TABLE invitations (
  id INTEGER PRIMARY KEY,
  workspace_id INTEGER NOT NULL REFERENCES workspaces (id),
  email TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
  -- SHA-256 of the token in the invitation's link; the token itself is never stored
  token_hash BLOB NOT NULL CONSTRAINT invitations_token_unique UNIQUE,
  invited_by INTEGER REFERENCES users (id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  accepted_at INTEGER,
  accepted_by INTEGER REFERENCES users (id),
  revoked_at INTEGER
);

CREATE INDEX invitations_pending ON invitations (workspace_id) WHERE accepted_at IS NULL AND revoked_at IS NULL;

-- single-use links mailed to a user: password reset and email verification
CREATE TABLE user_tokens (
  token_hash BLOB PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  purpose TEXT NOT NULL CHECK (purpose IN ('reset', 'verify')),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);

CREATE INDEX user_tokens_user ON user_tokens (user_id, purpose);

-- a user's OpenID Connect identities, matched by the issuer's subject
CREATE TABLE user_identities (
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users (id),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (issuer, subject)
);
