-- Plans people can buy (docs/api.md §17): a monthly price in minor units and its ISO 4217 currency
-- (none: free), listed on /pricing when public, what it includes, and the Stripe price it sells as.
ALTER TABLE plans ADD COLUMN price_amount INTEGER;
ALTER TABLE plans ADD COLUMN price_currency TEXT;
ALTER TABLE plans ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
ALTER TABLE plans ADD COLUMN description TEXT NOT NULL DEFAULT '';
ALTER TABLE plans ADD COLUMN stripe_price_id TEXT;

-- A workspace's Stripe customer (one per workspace), its subscription and that subscription's
-- status, and the order of the last billing event applied: an older event arriving later changes
-- nothing.
ALTER TABLE workspaces ADD COLUMN stripe_customer_id TEXT;
ALTER TABLE workspaces ADD COLUMN stripe_subscription_id TEXT;
ALTER TABLE workspaces ADD COLUMN billing_status TEXT;
ALTER TABLE workspaces ADD COLUMN billing_event_order INTEGER;
CREATE UNIQUE INDEX workspaces_stripe_customer ON workspaces (stripe_customer_id)
  WHERE stripe_customer_id IS NOT NULL;

-- Every Stripe event handled, by its id: a replay (Stripe retries, or an attacker's copy of a signed
-- body) is recognised and changes nothing.
CREATE TABLE stripe_events (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  received_at INTEGER NOT NULL
);
