-- Public stats (docs/api.md §19): a link may show its stats page to anyone at /<code>+ on its own
-- domain. Off unless its owner turns it on, so existing links stay private.
ALTER TABLE links ADD COLUMN public_stats BOOLEAN NOT NULL DEFAULT false;
