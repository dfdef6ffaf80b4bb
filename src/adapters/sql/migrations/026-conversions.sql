-- Conversions (docs/api.md §20, docs/adr/045): a tracked link's redirect hands the visitor a random
-- click id; the merchant reports the leads and sales it led to. Nothing here identifies anyone: a
-- click id row holds the link, the variant, the day and the facts of §9.1; a customer is known only
-- by customer_key, an HMAC of the merchant's id under the workspace's secret.
ALTER TABLE workspaces ADD COLUMN track_conversions INTEGER NOT NULL DEFAULT 0;
-- 1 or 0, NULL: the workspace's default (booleans are integers here, as forward_query).
ALTER TABLE links ADD COLUMN track_conversions INTEGER;
ALTER TABLE links ADD COLUMN leads BIGINT NOT NULL DEFAULT 0;
ALTER TABLE links ADD COLUMN sales BIGINT NOT NULL DEFAULT 0;
-- JSON object: currency -> minor units; NULL: none yet.
ALTER TABLE links ADD COLUMN revenue TEXT;

-- Kept CONVERSION_WINDOW_DAYS after the click's UTC day (YYYY-MM-DD): no time finer than the day.
CREATE TABLE conversion_clicks (
  click_id TEXT PRIMARY KEY,
  workspace_id BIGINT NOT NULL,
  link_id BIGINT NOT NULL,
  variant TEXT,
  day TEXT NOT NULL,
  referrer TEXT,
  country TEXT,
  device TEXT,
  os TEXT,
  browser TEXT,
  language TEXT,
  source TEXT
);
CREATE INDEX conversion_clicks_day ON conversion_clicks (day);

-- One per customer and event; kept CONVERSION_WINDOW_DAYS after its last use (its sales attribute to it).
CREATE TABLE conversion_leads (
  workspace_id BIGINT NOT NULL,
  customer_key TEXT NOT NULL,
  event_name TEXT NOT NULL,
  click_id TEXT NOT NULL,
  link_id BIGINT NOT NULL,
  variant TEXT,
  at BIGINT NOT NULL,
  used_at BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, customer_key, event_name)
);
CREATE INDEX conversion_leads_customer ON conversion_leads (workspace_id, customer_key, at);
CREATE INDEX conversion_leads_used ON conversion_leads (used_at);

-- Sales with an invoice id only, to answer the same invoice once; kept CONVERSION_WINDOW_DAYS.
CREATE TABLE conversion_invoices (
  workspace_id BIGINT NOT NULL,
  invoice_key TEXT NOT NULL,
  link_id BIGINT NOT NULL,
  customer_key TEXT,
  amount BIGINT NOT NULL,
  currency TEXT NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, invoice_key)
);
CREATE INDEX conversion_invoices_at ON conversion_invoices (at);

-- Daily figures beside the click aggregates, kept as long as the link: the leads on the row of
-- currency '', sales and revenue on each currency's row.
CREATE TABLE conversion_daily (
  link_id BIGINT NOT NULL,
  workspace_id BIGINT NOT NULL,
  day TEXT NOT NULL,
  currency TEXT NOT NULL,
  leads BIGINT NOT NULL DEFAULT 0,
  sales BIGINT NOT NULL DEFAULT 0,
  revenue BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (link_id, day, currency)
);
CREATE INDEX conversion_daily_workspace ON conversion_daily (workspace_id, day);

-- The main key has every scope (docs/api.md §7.1), the new one included.
UPDATE api_keys SET scopes = scopes || ' conversions:write'
  WHERE main = 1 AND scopes NOT LIKE '%conversions:write%';
