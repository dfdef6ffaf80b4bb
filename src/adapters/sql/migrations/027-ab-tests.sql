-- A/B tests (docs/api.md §20.x, docs/adr/046): a link may split its clicks between 2 to 4 variant
-- URLs (JSON [{url, weight}], NULL: none) from test_started_at until test_ends_at (NULL: until it
-- is changed); test_claimed_until is the lease of the instance applying the winner once it ends.
-- Each click event names its variant ('1' to '4'; '' for a click of a link without a test).
-- On PostgreSQL click_events is partitioned (migration 023): a column added to the parent is
-- added to every partition, and a constant default leaves the rows already there unrewritten.
ALTER TABLE links ADD COLUMN variants TEXT;
ALTER TABLE links ADD COLUMN test_started_at BIGINT;
ALTER TABLE links ADD COLUMN test_ends_at BIGINT;
ALTER TABLE links ADD COLUMN test_claimed_until BIGINT;
-- The scheduler's look-up of tests that have ended reads only links that have one.
CREATE INDEX links_test_ends_at ON links (test_ends_at) WHERE test_ends_at IS NOT NULL;
ALTER TABLE click_events ADD COLUMN variant TEXT NOT NULL DEFAULT '';
