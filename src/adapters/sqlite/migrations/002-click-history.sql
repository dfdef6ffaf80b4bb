-- Daily click history, kept compact: one row per link and UTC day that had human clicks.
-- `day` counts days since 1970-01-01 UTC. Bot hits are only totalled on links.bot_hits.
-- Kept plain so the PostgreSQL mirror differs only in types (and WITHOUT ROWID, which it drops).

CREATE TABLE link_daily_clicks (
  link_id INTEGER NOT NULL REFERENCES links (id),
  day INTEGER NOT NULL,
  clicks INTEGER NOT NULL,
  PRIMARY KEY (link_id, day)
) WITHOUT ROWID;

-- The same clicks summed per account, written in the same transaction as link_daily_clicks, so
-- the dashboard chart reads one short range however many links the account holds.
CREATE TABLE account_daily_clicks (
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  day INTEGER NOT NULL,
  clicks INTEGER NOT NULL,
  PRIMARY KEY (account_id, day)
) WITHOUT ROWID;

-- The dashboard lists an account's live links newest first (its query must say
-- `deleted_at IS NULL` to use this index); links_live_url cannot serve that order. Partial like
-- links_live_url, so counting live links is no slower than before this index.
CREATE INDEX links_account ON links (account_id, created_at) WHERE deleted_at IS NULL;
