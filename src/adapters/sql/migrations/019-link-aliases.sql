-- A link's former codes (docs/api.md §18): renaming a link keeps its old code as an alias that
-- redirects to the same link and counts there. A code is never issued twice on a domain: link
-- creation and renames look here as well as at every link row (deleted ones included), so the
-- alias holds its code for good. `created_at` orders a link's aliases, oldest first.
CREATE TABLE link_aliases (
  domain_id BIGINT NOT NULL REFERENCES domains (id),
  code TEXT NOT NULL,
  link_id BIGINT NOT NULL REFERENCES links (id),
  created_at BIGINT NOT NULL,
  PRIMARY KEY (domain_id, code)
);
CREATE INDEX link_aliases_link ON link_aliases (link_id, created_at);
