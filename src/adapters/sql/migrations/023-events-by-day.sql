-- Raw click events leave past the retention without a long-running DELETE (docs/api.md §19,
-- docs/adr/042). On PostgreSQL click_events becomes a table partitioned by range of `at`, one
-- partition per UTC day, so the sweep drops a wholly expired day as a file; a DEFAULT partition
-- takes any `at` no day partition covers, so an insert never fails. Columns, their order and
-- meaning, and the index names stay as they were: the same queries read and write it.
-- dialect: postgres
ALTER TABLE click_events RENAME TO click_events_unpartitioned;
CREATE TABLE click_events (
  link_id BIGINT NOT NULL,
  workspace_id BIGINT NOT NULL,
  at BIGINT NOT NULL,
  visitor BIGINT NOT NULL,
  referrer TEXT NOT NULL,
  country TEXT NOT NULL,
  device TEXT NOT NULL,
  os TEXT NOT NULL,
  browser TEXT NOT NULL,
  language TEXT NOT NULL,
  source TEXT NOT NULL
) PARTITION BY RANGE (at);
CREATE TABLE click_events_default PARTITION OF click_events DEFAULT;
-- A partition for each day the events held fall on from ten years back to a year ahead, and for
-- today and the 7 days after it; the sweep keeps making them 7 days ahead
-- (postgres/event-partitions.ts). Events of other days go to DEFAULT.
DO $$
DECLARE
  today BIGINT := floor(extract(epoch FROM now()) / 86400);
  d BIGINT;
BEGIN
  FOR d IN
    SELECT day FROM (SELECT DISTINCT floor(at / 86400000.0)::BIGINT AS day FROM click_events_unpartitioned) held
      WHERE day >= today - 3660 AND day > 0 AND day <= today + 366
    UNION SELECT generate_series(today, today + 7)
    ORDER BY 1
  LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF click_events FOR VALUES FROM (%s) TO (%s)',
      'click_events_' || to_char(to_timestamp(d * 86400) AT TIME ZONE 'UTC', 'YYYY_MM_DD'),
      d * 86400000, (d + 1) * 86400000);
  END LOOP;
END $$;
INSERT INTO click_events (link_id, workspace_id, at, visitor, referrer, country, device, os, browser, language, source)
  SELECT link_id, workspace_id, at, visitor, referrer, country, device, os, browser, language, source
  FROM click_events_unpartitioned;
DROP TABLE click_events_unpartitioned;
-- Made on the parent once the rows are in, so each partition gets its own; the names are the old ones.
-- Hourly stats of a link: one range of (link_id, at) per day partition, the others pruned.
CREATE INDEX click_events_link_at ON click_events (link_id, at);
-- Hourly stats of a workspace, and the SQLite-shaped sweep by workspace: (workspace_id, at).
CREATE INDEX click_events_account_at ON click_events (workspace_id, at);
-- The slices the sweep deletes from the DEFAULT partition (and a boundary day) read `at < $1`.
CREATE INDEX click_events_at ON click_events USING brin (at);
-- dialect: sqlite
-- SQLite keeps one table: its sweep deletes in small slices on the click writer's thread, one
-- transaction each, so click batches and the main thread's writes go between them (docs/adr/042).
SELECT 1;
