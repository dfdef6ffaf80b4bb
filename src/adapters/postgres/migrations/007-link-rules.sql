-- Link rules (docs/api.md §8.2–8.3): expiry, a visit limit, a password, targeting rules. Mirrors
-- the SQLite file; only the types differ.

ALTER TABLE links ADD COLUMN expires_at BIGINT;
ALTER TABLE links ADD COLUMN max_clicks BIGINT;
ALTER TABLE links ADD COLUMN limit_used BIGINT NOT NULL DEFAULT 0;
ALTER TABLE links ADD COLUMN password_hash TEXT;
ALTER TABLE links ADD COLUMN rules TEXT;
