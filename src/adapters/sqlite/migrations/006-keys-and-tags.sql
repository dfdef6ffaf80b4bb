-- The management API: keys with a name and scopes, several live keys per account (one of them the
-- main key of API Access), when each was last used; links with tags and a time of last change.
-- Kept plain so the PostgreSQL mirror differs only in types.

ALTER TABLE api_keys ADD COLUMN name TEXT NOT NULL DEFAULT 'API Access';
-- space-separated; the main key has every scope
ALTER TABLE api_keys ADD COLUMN scopes TEXT NOT NULL DEFAULT 'links:create links:read links:write stats:read groups:write';
ALTER TABLE api_keys ADD COLUMN main INTEGER NOT NULL DEFAULT 1;
-- written in batches, never on the request's path
ALTER TABLE api_keys ADD COLUMN last_used_at INTEGER;

DROP INDEX api_keys_one_live;
-- at most one live main key per account; also serves the main-key lookup
CREATE UNIQUE INDEX api_keys_one_main ON api_keys (account_id) WHERE revoked_at IS NULL AND main = 1;
CREATE INDEX api_keys_live ON api_keys (account_id) WHERE revoked_at IS NULL;

-- live keys held, kept in each key's insert or revocation: the cap of 10 is one conditional UPDATE
ALTER TABLE accounts ADD COLUMN key_count INTEGER NOT NULL DEFAULT 0;
UPDATE accounts SET key_count =
  (SELECT COUNT(*) FROM api_keys k WHERE k.account_id = accounts.id AND k.revoked_at IS NULL);

-- NULL until the link is first changed
ALTER TABLE links ADD COLUMN updated_at INTEGER;

CREATE TABLE link_tags (
  link_id INTEGER NOT NULL REFERENCES links (id),
  tag TEXT NOT NULL,
  PRIMARY KEY (link_id, tag)
) WITHOUT ROWID;

-- listing an account's links with one tag
CREATE INDEX link_tags_tag ON link_tags (tag, link_id);
