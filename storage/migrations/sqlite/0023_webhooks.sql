-- Webhooks (SQLite): the addresses admins register, the events each wants, and one delivery per
-- event per endpoint, written in the transaction of the event itself and sent by a leased worker
-- like push deliveries (docs/decisions/037-webhooks.md).

-- An endpoint: where to POST, the Standard Webhooks signing secret ('whsec_' + base64), and
-- whether it is on. disabled_reason says why Canopy turned it off itself (the receiver answered
-- 410 Gone); NULL when an admin did, or when it is on.
CREATE TABLE webhook_endpoints (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  url TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  secret TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  disabled_reason TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- The events an endpoint receives: the event's own write selects the endpoints from here.
CREATE TABLE webhook_endpoint_events (
  endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_type TEXT NOT NULL,
  PRIMARY KEY (event_type, endpoint_id)
);

-- One event for one endpoint. message_id: the webhook-id header, the same for every attempt and
-- every endpoint of one event, so a receiver can drop a repeat. payload: the event's data, JSON,
-- as it was when the event happened. state: pending (to send, or to retry at next_attempt_at),
-- delivered (a 2xx), failed (out of time, or the receiver answered 410). last_status: the
-- receiver's last HTTP status (NULL: no answer); last_duration_ms: how long that attempt took.
CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  message_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  next_attempt_at TEXT NOT NULL,
  lease_until TEXT,
  last_status INTEGER,
  last_error TEXT,
  last_duration_ms INTEGER,
  finished_at TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
-- An endpoint's delivery log, newest first.
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id);
-- Old finished deliveries are deleted after a while.
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE state <> 'pending';
