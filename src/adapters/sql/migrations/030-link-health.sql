-- Link health (docs/api.md §21, docs/adr/048): each link's targets are checked again on a
-- schedule. health_state is ok, broken or unknown (never checked since made or retargeted);
-- health_checked_at, health_code ('' when the targets passed) and health_status are the latest
-- check's; health_failures counts failed checks in a row (two make a link broken);
-- health_since, health_cause_code and health_cause_status are the last change of state and what
-- made it. health_next_at is when the link is checked next (NULL: not yet placed in a round),
-- health_claimed_until the lease of the instance checking it.
ALTER TABLE links ADD COLUMN health_state TEXT NOT NULL DEFAULT 'unknown';
ALTER TABLE links ADD COLUMN health_checked_at BIGINT;
ALTER TABLE links ADD COLUMN health_code TEXT;
ALTER TABLE links ADD COLUMN health_status INTEGER;
ALTER TABLE links ADD COLUMN health_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE links ADD COLUMN health_since BIGINT;
ALTER TABLE links ADD COLUMN health_cause_code TEXT;
ALTER TABLE links ADD COLUMN health_cause_status INTEGER;
ALTER TABLE links ADD COLUMN health_next_at BIGINT;
ALTER TABLE links ADD COLUMN health_claimed_until BIGINT;
-- The scheduler's claim reads links in the order they fall due; new links wait to be placed.
CREATE INDEX links_health_next_at ON links (health_next_at) WHERE deleted_at IS NULL AND health_next_at IS NOT NULL;
CREATE INDEX links_health_unplaced ON links (id) WHERE deleted_at IS NULL AND health_next_at IS NULL;
-- The lists' state=broken and the console's count per workspace read only broken links.
CREATE INDEX links_health_broken ON links (workspace_id, health_since) WHERE deleted_at IS NULL AND health_state = 'broken';
-- A person may turn the daily mail of newly broken links off (on /account).
ALTER TABLE users ADD COLUMN health_mail BOOLEAN NOT NULL DEFAULT true;
-- The day each workspace's digest went out, and the change time it covered up to: one a day.
CREATE TABLE link_health_digests (
  workspace_id BIGINT PRIMARY KEY,
  day TEXT NOT NULL,
  through_at BIGINT NOT NULL
);
