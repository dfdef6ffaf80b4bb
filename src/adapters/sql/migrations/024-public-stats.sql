-- Public stats (docs/api.md §19): a link may show its stats page to anyone at /<code>+ on its own
-- domain. Off unless its owner turns it on, so existing links stay private. 0 or 1, like
-- forward_query: one parameter binds the same on both stores (a boolean parameter would not).
ALTER TABLE links ADD COLUMN public_stats INTEGER NOT NULL DEFAULT 0;
