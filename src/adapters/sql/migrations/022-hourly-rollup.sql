-- Hourly answers from a rollup (docs/api.md §19 "Hourly answers", docs/adr/041): per link and per
-- workspace and UTC hour (`hour` counts hours since 1970-01-01T00Z), the human clicks (events) and
-- the visitors first seen that day in that hour; per hour, dimension and value, the clicks. Written
-- by the flush in the same transaction as the per-day tables, kept as long as the raw events.
-- dialect: postgres
CREATE TABLE link_hourly_clicks (
  link_id BIGINT NOT NULL,
  hour INTEGER NOT NULL,
  clicks BIGINT NOT NULL,
  visitors BIGINT NOT NULL,
  PRIMARY KEY (link_id, hour)
);
CREATE TABLE workspace_hourly_clicks (
  workspace_id BIGINT NOT NULL,
  hour INTEGER NOT NULL,
  clicks BIGINT NOT NULL,
  visitors BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, hour)
);
CREATE TABLE link_hourly_stats (
  link_id BIGINT NOT NULL,
  hour INTEGER NOT NULL,
  dimension TEXT NOT NULL,
  value TEXT NOT NULL,
  clicks BIGINT NOT NULL,
  PRIMARY KEY (link_id, hour, dimension, value)
);
CREATE TABLE workspace_hourly_stats (
  workspace_id BIGINT NOT NULL,
  hour INTEGER NOT NULL,
  dimension TEXT NOT NULL,
  value TEXT NOT NULL,
  clicks BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, hour, dimension, value)
);
-- The retention's purge deletes old hours: rows go in roughly in hour order, so a BRIN index is
-- a few pages and next to nothing per write (SQLite purges id by id along the primary keys).
CREATE INDEX link_hourly_clicks_hour ON link_hourly_clicks USING brin (hour);
CREATE INDEX workspace_hourly_clicks_hour ON workspace_hourly_clicks USING brin (hour);
CREATE INDEX link_hourly_stats_hour ON link_hourly_stats USING brin (hour);
CREATE INDEX workspace_hourly_stats_hour ON workspace_hourly_stats USING brin (hour);
-- dialect: sqlite
CREATE TABLE link_hourly_clicks (
  link_id INTEGER NOT NULL,
  hour INTEGER NOT NULL,
  clicks INTEGER NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (link_id, hour)
) WITHOUT ROWID;
CREATE TABLE workspace_hourly_clicks (
  workspace_id INTEGER NOT NULL,
  hour INTEGER NOT NULL,
  clicks INTEGER NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, hour)
) WITHOUT ROWID;
CREATE TABLE link_hourly_stats (
  link_id INTEGER NOT NULL,
  hour INTEGER NOT NULL,
  dimension TEXT NOT NULL,
  value TEXT NOT NULL,
  clicks INTEGER NOT NULL,
  PRIMARY KEY (link_id, hour, dimension, value)
) WITHOUT ROWID;
CREATE TABLE workspace_hourly_stats (
  workspace_id INTEGER NOT NULL,
  hour INTEGER NOT NULL,
  dimension TEXT NOT NULL,
  value TEXT NOT NULL,
  clicks INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, hour, dimension, value)
) WITHOUT ROWID;
-- dialect: both
-- Backfilled from the events still kept. A visitor id lives one UTC day: its first sighting is its
-- earliest event of that day on the link (or in the workspace), counted in that event's hour.
INSERT INTO link_hourly_clicks (link_id, hour, clicks, visitors)
SELECT link_id, hour, SUM(clicks), SUM(visitors) FROM (
  SELECT link_id, at / 3600000 AS hour, COUNT(*) AS clicks, 0 AS visitors
  FROM click_events GROUP BY link_id, at / 3600000
  UNION ALL
  SELECT link_id, first_at / 3600000, 0, COUNT(*) FROM (
    SELECT link_id, MIN(at) AS first_at FROM click_events GROUP BY link_id, at / 86400000, visitor
  ) AS firsts GROUP BY link_id, first_at / 3600000
) AS parts GROUP BY link_id, hour;
INSERT INTO workspace_hourly_clicks (workspace_id, hour, clicks, visitors)
SELECT workspace_id, hour, SUM(clicks), SUM(visitors) FROM (
  SELECT workspace_id, at / 3600000 AS hour, COUNT(*) AS clicks, 0 AS visitors
  FROM click_events GROUP BY workspace_id, at / 3600000
  UNION ALL
  SELECT workspace_id, first_at / 3600000, 0, COUNT(*) FROM (
    SELECT workspace_id, MIN(at) AS first_at FROM click_events GROUP BY workspace_id, at / 86400000, visitor
  ) AS firsts GROUP BY workspace_id, first_at / 3600000
) AS parts GROUP BY workspace_id, hour;
INSERT INTO link_hourly_stats (link_id, hour, dimension, value, clicks)
  SELECT link_id, at / 3600000, 'referrer', referrer, COUNT(*) FROM click_events GROUP BY link_id, at / 3600000, referrer
  UNION ALL
  SELECT link_id, at / 3600000, 'country', country, COUNT(*) FROM click_events GROUP BY link_id, at / 3600000, country
  UNION ALL
  SELECT link_id, at / 3600000, 'device', device, COUNT(*) FROM click_events GROUP BY link_id, at / 3600000, device
  UNION ALL
  SELECT link_id, at / 3600000, 'os', os, COUNT(*) FROM click_events GROUP BY link_id, at / 3600000, os
  UNION ALL
  SELECT link_id, at / 3600000, 'browser', browser, COUNT(*) FROM click_events GROUP BY link_id, at / 3600000, browser
  UNION ALL
  SELECT link_id, at / 3600000, 'language', language, COUNT(*) FROM click_events GROUP BY link_id, at / 3600000, language
  UNION ALL
  SELECT link_id, at / 3600000, 'source', source, COUNT(*) FROM click_events GROUP BY link_id, at / 3600000, source;
INSERT INTO workspace_hourly_stats (workspace_id, hour, dimension, value, clicks)
  SELECT workspace_id, at / 3600000, 'referrer', referrer, COUNT(*) FROM click_events GROUP BY workspace_id, at / 3600000, referrer
  UNION ALL
  SELECT workspace_id, at / 3600000, 'country', country, COUNT(*) FROM click_events GROUP BY workspace_id, at / 3600000, country
  UNION ALL
  SELECT workspace_id, at / 3600000, 'device', device, COUNT(*) FROM click_events GROUP BY workspace_id, at / 3600000, device
  UNION ALL
  SELECT workspace_id, at / 3600000, 'os', os, COUNT(*) FROM click_events GROUP BY workspace_id, at / 3600000, os
  UNION ALL
  SELECT workspace_id, at / 3600000, 'browser', browser, COUNT(*) FROM click_events GROUP BY workspace_id, at / 3600000, browser
  UNION ALL
  SELECT workspace_id, at / 3600000, 'language', language, COUNT(*) FROM click_events GROUP BY workspace_id, at / 3600000, language
  UNION ALL
  SELECT workspace_id, at / 3600000, 'source', source, COUNT(*) FROM click_events GROUP BY workspace_id, at / 3600000, source;
