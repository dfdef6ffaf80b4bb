-- Links, second round (docs/api.md §16): whether the short URL's own query is appended to the
-- target at the redirect, and the card link previewers are shown (JSON {title, description,
-- image}; NULL for none, the redirect's answer to them as to anyone).
ALTER TABLE links ADD COLUMN forward_query INTEGER NOT NULL DEFAULT 0;
ALTER TABLE links ADD COLUMN preview TEXT;
