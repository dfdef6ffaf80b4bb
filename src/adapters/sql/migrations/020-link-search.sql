-- The link workbench's list (docs/api.md §18): every sort and the domain filter read a workspace's
-- live links along an index, so a page stops at its last row instead of sorting every link. The
-- created and clicks orders already have theirs (links_account, links_account_created/_clicks);
-- a tag starts from link_tags_tag; a short URL pasted whole from links_domain_code_unique.
-- Each index ends with the id, the tie-break of every order, so a cursor is one range of it.
CREATE INDEX links_workspace_domain ON links (workspace_id, domain_id, created_at, id)
  WHERE deleted_at IS NULL;
-- A link never clicked sorts as clicked at 0 (link-list.ts orders by the same expression).
CREATE INDEX links_workspace_last_click ON links (workspace_id, (COALESCE(last_clicked_at, 0)), id)
  WHERE deleted_at IS NULL;
CREATE INDEX links_workspace_title ON links (workspace_id, title, id) WHERE deleted_at IS NULL;
-- The default list leaves archived links out: its total is the workspace's counter of live links
-- less these few, counted here.
CREATE INDEX links_workspace_archived ON links (workspace_id) WHERE deleted_at IS NULL AND archived = true;
