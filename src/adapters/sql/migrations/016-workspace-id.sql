-- The tables a workspace owns name it by its name at last: `account_id` becomes `workspace_id`,
-- and the workspace's daily tables are `workspace_daily_*` (010 renamed accounts to workspaces and
-- left its children's names as they were). The first migration written once for both dialects:
-- both rename in place (SQLite since 3.25), so rows, indexes and constraints stay and the indexes
-- follow their columns. Index and constraint names keep their old words.
ALTER TABLE links RENAME COLUMN account_id TO workspace_id;
ALTER TABLE groups RENAME COLUMN account_id TO workspace_id;
ALTER TABLE api_keys RENAME COLUMN account_id TO workspace_id;
ALTER TABLE click_events RENAME COLUMN account_id TO workspace_id;
ALTER TABLE account_daily_clicks RENAME COLUMN account_id TO workspace_id;
ALTER TABLE account_daily_stats RENAME COLUMN account_id TO workspace_id;
ALTER TABLE account_daily_clicks RENAME TO workspace_daily_clicks;
ALTER TABLE account_daily_stats RENAME TO workspace_daily_stats;
