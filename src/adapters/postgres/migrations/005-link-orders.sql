-- Listing an account's links by keyset in either order: newest first (created_at, id) and most
-- clicked first (clicks, id). The id breaks ties, so it is part of both indexes (SQLite has it as
-- the rowid); links_account is replaced by its extended form.

CREATE INDEX links_account_created ON links (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX links_account_clicks ON links (account_id, clicks DESC, id DESC) WHERE deleted_at IS NULL;
DROP INDEX links_account;
