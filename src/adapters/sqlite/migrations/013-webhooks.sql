-- Webhooks and the event stream (docs/api.md §14): each workspace's endpoints, and the outbox of
-- events and their deliveries that any instance works off. AUTOINCREMENT: an id is never used twice,
-- so the outcome of an attempt still under way can never land on a newer delivery.

CREATE TABLE webhook_endpoints (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id INTEGER NOT NULL REFERENCES workspaces (id),
  url TEXT NOT NULL,
  -- the event types it receives, each between spaces (' link.created link.clicked '), for LIKE
  events TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  -- whsec_…: the signing secret, shown once; kept, as the signature needs it
  secret TEXT NOT NULL,
  enabled BOOLEAN NOT NULL DEFAULT 1,
  -- 'failing' when Snip disabled it, 'manual' when its admins did
  disabled_reason TEXT,
  disabled_at INTEGER,
  -- the first failed attempt since its last success, and the failed attempts since
  failing_since INTEGER,
  failures INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE INDEX webhook_endpoints_workspace ON webhook_endpoints (workspace_id);

CREATE TABLE webhook_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  -- the webhook-id of every delivery of it (msg_…)
  message_id TEXT NOT NULL UNIQUE,
  workspace_id INTEGER NOT NULL,
  type TEXT NOT NULL,
  -- the exact body sent: {type, timestamp, data}
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id INTEGER NOT NULL REFERENCES webhook_events (id),
  -- NULL: the operator's event stream (EVENTS_AMQP_URL)
  endpoint_id INTEGER REFERENCES webhook_endpoints (id),
  -- pending, delivered, failed (retries spent) or cancelled (its endpoint was disabled)
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  -- pending: when it is due; an instance that claims it moves this past its attempt (a lease)
  next_at INTEGER NOT NULL,
  status_code INTEGER,
  duration_ms INTEGER,
  error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

-- Raised by every change of any endpoint: instances poll it and read again who hears clicks.
CREATE TABLE webhook_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);
INSERT INTO webhook_state (id, version) VALUES (1, 0);
