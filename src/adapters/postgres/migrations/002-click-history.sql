-- Daily click history, kept compact: one row per link and UTC day that had human clicks.
-- `day` counts days since 1970-01-01 UTC. Bot hits are only totalled on links.bot_hits.
-- The mirror of migrations/sqlite/002-click-history.sql (WITHOUT ROWID dropped: a PostgreSQL
-- table is a heap plus its primary-key index either way).

CREATE TABLE link_daily_clicks (
  link_id BIGINT NOT NULL REFERENCES links (id),
  day INTEGER NOT NULL,
  clicks BIGINT NOT NULL,
  PRIMARY KEY (link_id, day)
);

-- The same clicks summed per account, written in the same transaction as link_daily_clicks, so
-- the dashboard chart reads one short range however many links the account holds.
CREATE TABLE account_daily_clicks (
  account_id BIGINT NOT NULL REFERENCES accounts (id),
  day INTEGER NOT NULL,
  clicks BIGINT NOT NULL,
  PRIMARY KEY (account_id, day)
);

-- The dashboard lists an account's live links newest first (its query must say
-- `deleted_at IS NULL` to use this index); links_live_url cannot serve that order.
CREATE INDEX links_account ON links (account_id, created_at) WHERE deleted_at IS NULL;
