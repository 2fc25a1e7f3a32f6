-- Push notifications of new articles (PostgreSQL): the browsers' subscriptions and one durable
-- delivery row per subscription for each article announced. See the SQLite migration for what
-- each column means.

CREATE TABLE push_subscriptions (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  endpoint TEXT NOT NULL UNIQUE,
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  expiration_time TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL,
  refreshed_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE push_deliveries (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  article_id BIGINT NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  subscription_id BIGINT REFERENCES push_subscriptions (id) ON DELETE SET NULL,
  state TEXT NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'sent', 'gone', 'failed', 'cancelled')),
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at TIMESTAMPTZ NOT NULL,
  next_attempt_at TIMESTAMPTZ NOT NULL,
  lease_until TIMESTAMPTZ,
  last_status INTEGER,
  last_error TEXT,
  finished_at TIMESTAMPTZ,
  UNIQUE (article_id, subscription_id)
);
CREATE INDEX push_deliveries_due ON push_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX push_deliveries_subscription ON push_deliveries (subscription_id);
CREATE INDEX push_deliveries_article_state ON push_deliveries (article_id, state);

ALTER TABLE articles ADD COLUMN notify BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE articles ADD COLUMN notified_at TIMESTAMPTZ;
UPDATE articles SET notified_at = COALESCE(published_at, updated_at) WHERE status = 'published';
