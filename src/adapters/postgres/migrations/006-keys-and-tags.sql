-- The management API: named keys with scopes, several per account; links with tags and an update
-- time (see the SQLite file).

ALTER TABLE api_keys ADD COLUMN name TEXT NOT NULL DEFAULT 'API Access';
ALTER TABLE api_keys ADD COLUMN scopes TEXT NOT NULL DEFAULT 'links:create links:read links:write stats:read groups:write';
-- 1 for the main key, 0 for the others (an integer, so both dialects share the statements)
ALTER TABLE api_keys ADD COLUMN main SMALLINT NOT NULL DEFAULT 1;
ALTER TABLE api_keys ADD COLUMN last_used_at BIGINT;

DROP INDEX api_keys_one_live;
CREATE UNIQUE INDEX api_keys_one_main ON api_keys (account_id) WHERE revoked_at IS NULL AND main = 1;
CREATE INDEX api_keys_live ON api_keys (account_id) WHERE revoked_at IS NULL;

ALTER TABLE accounts ADD COLUMN key_count BIGINT NOT NULL DEFAULT 0;
UPDATE accounts SET key_count =
  (SELECT COUNT(*) FROM api_keys k WHERE k.account_id = accounts.id AND k.revoked_at IS NULL);

ALTER TABLE links ADD COLUMN updated_at BIGINT;

CREATE TABLE link_tags (
  link_id BIGINT NOT NULL REFERENCES links (id),
  tag TEXT NOT NULL,
  PRIMARY KEY (link_id, tag)
);

CREATE INDEX link_tags_tag ON link_tags (tag, link_id);
