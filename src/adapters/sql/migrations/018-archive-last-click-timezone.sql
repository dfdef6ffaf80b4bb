-- The link workbench (docs/api.md §18): a link can be archived (hidden from the default list, still
-- redirecting and counting) and knows when it was last clicked; a workspace has a time zone (an
-- IANA name) its pages enter and show dates in.
ALTER TABLE links ADD COLUMN archived BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE links ADD COLUMN last_clicked_at BIGINT;
ALTER TABLE workspaces ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC';
