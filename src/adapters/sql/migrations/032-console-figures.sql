-- The operator console's figures (docs/api.md §22, docs/adr/050): each is one read along an index,
-- whatever the number of links. New links and sign-ups per day read a range of their creation
-- time; clicks today, in 7 and 30 days and the top workspaces read a range of days of the
-- per-workspace daily table, whose key starts with the workspace. The newest links across
-- workspaces walk the links' primary key backwards and need nothing more.
CREATE INDEX links_created ON links (created_at);
CREATE INDEX users_created ON users (created_at);
-- Only the day is indexed: the flush updates clicks in place, and PostgreSQL keeps such an update
-- on the row's page (HOT) only while no index holds the changed column.
CREATE INDEX workspace_daily_clicks_day ON workspace_daily_clicks (day);
