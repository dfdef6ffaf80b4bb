-- Link rules (docs/api.md §8.2–8.3): expiry, a visit limit, a password, targeting rules.
-- Kept plain so the PostgreSQL mirror differs only in types.

-- epoch ms; from then on the link answers 410
ALTER TABLE links ADD COLUMN expires_at INTEGER;
ALTER TABLE links ADD COLUMN max_clicks INTEGER;
-- human clicks taken against max_clicks when no Redis is configured: one conditional UPDATE each,
-- starting from the link's clicks when the limit was set
ALTER TABLE links ADD COLUMN limit_used INTEGER NOT NULL DEFAULT 0;
-- scrypt, in the form core/password.ts writes; never returned by the API
ALTER TABLE links ADD COLUMN password_hash TEXT;
-- JSON array of {"if": {...}, "url": "..."}; NULL when the link has none
ALTER TABLE links ADD COLUMN rules TEXT;
