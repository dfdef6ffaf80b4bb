-- Visit analytics (docs/api.md §9, docs/adr/018). The mirror of the SQLite file: the same tables and
-- reasons, only the types differ, and the purge index is a BRIN (below).

-- Days may now have bot hits and no human click: readers of the human history say `clicks > 0`.
-- `visitors`: visitors first seen that UTC day (on the link, or on any link of the account).
ALTER TABLE link_daily_clicks ADD COLUMN bot_hits BIGINT NOT NULL DEFAULT 0;
ALTER TABLE link_daily_clicks ADD COLUMN visitors BIGINT NOT NULL DEFAULT 0;
ALTER TABLE account_daily_clicks ADD COLUMN bot_hits BIGINT NOT NULL DEFAULT 0;
ALTER TABLE account_daily_clicks ADD COLUMN visitors BIGINT NOT NULL DEFAULT 0;
ALTER TABLE links ADD COLUMN unique_visitors BIGINT NOT NULL DEFAULT 0;

-- One row per human click with TRACKING=full. No foreign keys: a write of 10k events should not
-- check 10k parents, and links are never deleted (only marked). `at` is epoch ms; `visitor` the 16
-- hex digits of the visitor id as one BIGINT (8 bytes instead of 17 as text). Columns ordered
-- widest-aligned first so the heap tuple carries no padding.
CREATE TABLE click_events (
  link_id BIGINT NOT NULL,
  account_id BIGINT NOT NULL,
  at BIGINT NOT NULL,
  visitor BIGINT NOT NULL,
  referrer TEXT NOT NULL,
  country TEXT NOT NULL,
  device TEXT NOT NULL,
  os TEXT NOT NULL,
  browser TEXT NOT NULL,
  language TEXT NOT NULL,
  source TEXT NOT NULL
);
-- Hourly stats of a link: `link_id = $1 AND at >= $2 AND at < $3` is one range of this index.
CREATE INDEX click_events_link_at ON click_events (link_id, at);
-- Hourly stats of an account: the same range over all its links, without a join to links.
CREATE INDEX click_events_account_at ON click_events (account_id, at);
-- The retention sweep deletes `at < $1`. Rows are appended in arrival order, so `at` follows the
-- heap's physical order and a BRIN index (a few pages for millions of rows, next to nothing per
-- insert) finds the oldest blocks as well as a B-tree would.
CREATE INDEX click_events_at ON click_events USING brin (at);

-- Per UTC day, per dimension (core/analytics/model.ts DIMENSIONS) and value: how many human clicks
-- (`bot`: bot hits by kind). Written in the same transaction as the counts, pre-summed per batch.
CREATE TABLE link_daily_stats (
  link_id BIGINT NOT NULL,
  day INTEGER NOT NULL,
  dimension TEXT NOT NULL,
  value TEXT NOT NULL,
  clicks BIGINT NOT NULL,
  PRIMARY KEY (link_id, day, dimension, value)
);

-- The same summed per account, so an account's answer reads one range however many links it has.
CREATE TABLE account_daily_stats (
  account_id BIGINT NOT NULL,
  day INTEGER NOT NULL,
  dimension TEXT NOT NULL,
  value TEXT NOT NULL,
  clicks BIGINT NOT NULL,
  PRIMARY KEY (account_id, day, dimension, value)
);
