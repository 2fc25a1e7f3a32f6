-- Push retention (PostgreSQL): old delivery rows are retired into per-article totals, and dead
-- subscriptions are found without reading the whole table. See the SQLite migration for what
-- each part means, and docs/decisions/012-push-retention.md.

CREATE TABLE push_delivery_totals (
  article_id BIGINT PRIMARY KEY REFERENCES articles (id) ON DELETE CASCADE,
  sent INTEGER NOT NULL DEFAULT 0,
  gone INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  cancelled INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX push_deliveries_finished ON push_deliveries (finished_at) WHERE state <> 'pending';

CREATE INDEX push_subscriptions_expiration ON push_subscriptions (expiration_time)
  WHERE expiration_time IS NOT NULL;
CREATE INDEX push_subscriptions_refreshed ON push_subscriptions (refreshed_at);
