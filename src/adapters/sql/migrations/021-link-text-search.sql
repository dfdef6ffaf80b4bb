-- The list's search box reads an index (docs/api.md §18, docs/adr/040): a code prefix is a range of
-- a workspace's lowered codes; text within a title, a long URL or a tag is found through trigrams
-- (pg_trgm's GIN indexes on PostgreSQL, an FTS5 trigram table on SQLite) instead of reading the
-- workspace's links along the list's order until a page is full.
-- dialect: postgres
-- "C": byte order, so a prefix is one range whatever the database's collation.
CREATE INDEX links_workspace_code ON links (workspace_id, (lower(code) COLLATE "C"))
  WHERE deleted_at IS NULL;
-- pg_trgm is trusted (PostgreSQL 13+): a user with CREATE on the database may install it. One who
-- may not still migrates: the search then reads links without these indexes, as before 021, and
-- the server logs the warning. An administrator may install it later and run the statements below.
-- An extension is the database's, in one schema: `public` where it may go, so that dropping Snip's
-- own schema (one of several in a database) never drops it from under another's indexes.
DO $$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
  EXCEPTION WHEN OTHERS THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  END;
EXCEPTION WHEN OTHERS THEN
  RAISE WARNING 'snip: pg_trgm not installed (%): the link search reads without its indexes', SQLERRM;
END $$;
-- The operator class wherever the extension lives (it may be in a schema off the search path).
DO $$
DECLARE
  ops text;
BEGIN
  SELECT format('%I.gin_trgm_ops', n.nspname) INTO ops
    FROM pg_opclass c
    JOIN pg_namespace n ON n.oid = c.opcnamespace
    JOIN pg_am a ON a.oid = c.opcmethod
   WHERE c.opcname = 'gin_trgm_ops' AND a.amname = 'gin'
   LIMIT 1;
  IF ops IS NULL THEN
    RETURN;
  END IF;
  EXECUTE format('CREATE INDEX links_title_trgm ON links USING gin (lower(title) %s) WHERE deleted_at IS NULL', ops);
  EXECUTE format('CREATE INDEX links_long_url_trgm ON links USING gin (lower(long_url) %s) WHERE deleted_at IS NULL', ops);
  EXECUTE format('CREATE INDEX link_tags_tag_trgm ON link_tags USING gin (lower(tag) %s)', ops);
END $$;
-- dialect: sqlite
CREATE INDEX links_workspace_code ON links (workspace_id, lower(code)) WHERE deleted_at IS NULL;
-- One row per live link (rowid = links.id): its title, long URL and tags (one a line). Contentless:
-- the index alone, no copy of the text; a match is a candidate that link-list.ts checks against
-- the link's own columns with today's LIKE, so results stay exactly those of a scan.
CREATE VIRTUAL TABLE link_search USING fts5 (
  title, long_url, tags, tokenize = 'trigram', content = '', contentless_delete = 1
);
INSERT INTO link_search (rowid, title, long_url, tags)
  SELECT id, title, long_url, (SELECT group_concat(tag, char(10)) FROM link_tags t WHERE t.link_id = links.id)
    FROM links WHERE deleted_at IS NULL;
CREATE TRIGGER links_search_insert AFTER INSERT ON links WHEN new.deleted_at IS NULL BEGIN
  INSERT INTO link_search (rowid, title, long_url, tags)
    VALUES (new.id, new.title, new.long_url,
      (SELECT group_concat(tag, char(10)) FROM link_tags t WHERE t.link_id = new.id));
END;
-- Only when what is indexed changes: a click's UPDATE (clicks, last_clicked_at) never comes here.
CREATE TRIGGER links_search_update AFTER UPDATE OF title, long_url, deleted_at ON links
  WHEN old.title IS NOT new.title OR old.long_url IS NOT new.long_url OR old.deleted_at IS NOT new.deleted_at
BEGIN
  DELETE FROM link_search WHERE rowid = old.id;
  INSERT INTO link_search (rowid, title, long_url, tags)
    SELECT new.id, new.title, new.long_url,
      (SELECT group_concat(tag, char(10)) FROM link_tags t WHERE t.link_id = new.id)
     WHERE new.deleted_at IS NULL;
END;
CREATE TRIGGER links_search_delete AFTER DELETE ON links BEGIN
  DELETE FROM link_search WHERE rowid = old.id;
END;
-- A tag added, removed or renamed: the link's row again, with its tags as they now are.
CREATE TRIGGER link_tags_search_insert AFTER INSERT ON link_tags BEGIN
  DELETE FROM link_search WHERE rowid = new.link_id;
  INSERT INTO link_search (rowid, title, long_url, tags)
    SELECT l.id, l.title, l.long_url,
      (SELECT group_concat(tag, char(10)) FROM link_tags t WHERE t.link_id = l.id)
      FROM links l WHERE l.id = new.link_id AND l.deleted_at IS NULL;
END;
CREATE TRIGGER link_tags_search_delete AFTER DELETE ON link_tags BEGIN
  DELETE FROM link_search WHERE rowid = old.link_id;
  INSERT INTO link_search (rowid, title, long_url, tags)
    SELECT l.id, l.title, l.long_url,
      (SELECT group_concat(tag, char(10)) FROM link_tags t WHERE t.link_id = l.id)
      FROM links l WHERE l.id = old.link_id AND l.deleted_at IS NULL;
END;
CREATE TRIGGER link_tags_search_update AFTER UPDATE ON link_tags BEGIN
  DELETE FROM link_search WHERE rowid IN (old.link_id, new.link_id);
  INSERT INTO link_search (rowid, title, long_url, tags)
    SELECT l.id, l.title, l.long_url,
      (SELECT group_concat(tag, char(10)) FROM link_tags t WHERE t.link_id = l.id)
      FROM links l WHERE l.id IN (old.link_id, new.link_id) AND l.deleted_at IS NULL;
END;
