-- Visit analytics (docs/api.md §9, docs/adr/018): raw click events kept ANALYTICS_RETENTION_DAYS,
-- per-day per-dimension aggregates kept as long as the link, bot hits and unique visitors per day.
-- Kept plain so the PostgreSQL mirror differs only in types (and WITHOUT ROWID, which it drops).

-- Days may now have bot hits and no human click: readers of the human history say `clicks > 0`.
-- `visitors`: visitors first seen that UTC day (on the link, or on any link of the account).
ALTER TABLE link_daily_clicks ADD COLUMN bot_hits INTEGER NOT NULL DEFAULT 0;
ALTER TABLE link_daily_clicks ADD COLUMN visitors INTEGER NOT NULL DEFAULT 0;
ALTER TABLE account_daily_clicks ADD COLUMN bot_hits INTEGER NOT NULL DEFAULT 0;
ALTER TABLE account_daily_clicks ADD COLUMN visitors INTEGER NOT NULL DEFAULT 0;
-- The link's daily unique visitors summed over its days, beside its clicks.
ALTER TABLE links ADD COLUMN unique_visitors INTEGER NOT NULL DEFAULT 0;

-- One row per human click with TRACKING=full. No foreign keys: a purge or a write of 10k events
-- should not pay a look-up per row, and links are never deleted (only marked), so ids stay valid.
-- `at` is epoch ms; `visitor` the 16 hex digits of the visitor id as one signed 64-bit integer
-- (8 bytes instead of 17 as text). A rowid table: rows go in at the end in arrival order.
CREATE TABLE click_events (
  link_id INTEGER NOT NULL,
  account_id INTEGER NOT NULL,
  at INTEGER NOT NULL,
  referrer TEXT NOT NULL,
  country TEXT NOT NULL,
  device TEXT NOT NULL,
  os TEXT NOT NULL,
  browser TEXT NOT NULL,
  language TEXT NOT NULL,
  source TEXT NOT NULL,
  visitor INTEGER NOT NULL
);
-- Hourly stats of a link: `link_id = ? AND at >= ? AND at < ?` is one range of this index.
CREATE INDEX click_events_link_at ON click_events (link_id, at);
-- Hourly stats of an account: the same range over all its links, without a join to links.
CREATE INDEX click_events_account_at ON click_events (account_id, at);
-- The retention sweep deletes `at < ?`: the oldest end of this index, instead of a scan of every
-- row each hour. `at` grows with arrival, so its inserts touch only the rightmost page.
CREATE INDEX click_events_at ON click_events (at);

-- Per UTC day, per dimension (core/analytics/model.ts DIMENSIONS) and value: how many human clicks
-- (`bot`: bot hits by kind). Written in the same transaction as the counts, pre-summed per batch.
-- A daily stats answer of a link reads one range of this key: (link_id, day BETWEEN ? AND ?).
CREATE TABLE link_daily_stats (
  link_id INTEGER NOT NULL,
  day INTEGER NOT NULL,
  dimension TEXT NOT NULL,
  value TEXT NOT NULL,
  clicks INTEGER NOT NULL,
  PRIMARY KEY (link_id, day, dimension, value)
) WITHOUT ROWID;

-- The same summed per account, so an account's answer reads one range however many links it has.
CREATE TABLE account_daily_stats (
  account_id INTEGER NOT NULL,
  day INTEGER NOT NULL,
  dimension TEXT NOT NULL,
  value TEXT NOT NULL,
  clicks INTEGER NOT NULL,
  PRIMARY KEY (account_id, day, dimension, value)
) WITHOUT ROWID;
