-- Listing an account's links most clicked first, a page at a time by keyset (clicks, id): as
-- links_account serves newest first. Partial, as the listing only ever reads live links.

CREATE INDEX links_account_clicks ON links (account_id, clicks) WHERE deleted_at IS NULL;
