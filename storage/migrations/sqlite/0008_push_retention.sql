-- Push retention (SQLite): old delivery rows are retired into per-article totals, and dead
-- subscriptions are found without reading the whole table. See docs/decisions/012-push-retention.md.

-- What an article's retired deliveries came to, by final state: a delivery finished more than
-- 30 days ago is deleted and counted here, in the same transaction, so the editors' figures
-- (delivery rows plus these) stay the same. No pending column: only finished rows are retired.
-- The totals go with the article, as its delivery rows do.
CREATE TABLE push_delivery_totals (
  article_id INTEGER PRIMARY KEY REFERENCES articles (id) ON DELETE CASCADE,
  sent INTEGER NOT NULL DEFAULT 0,
  gone INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  cancelled INTEGER NOT NULL DEFAULT 0
);

-- The finished rows to retire, oldest first.
CREATE INDEX push_deliveries_finished ON push_deliveries (finished_at) WHERE state <> 'pending';

-- The subscriptions to delete: past their expiration time, or not sent again by the browser for
-- months.
CREATE INDEX push_subscriptions_expiration ON push_subscriptions (expiration_time)
  WHERE expiration_time IS NOT NULL;
CREATE INDEX push_subscriptions_refreshed ON push_subscriptions (refreshed_at);
