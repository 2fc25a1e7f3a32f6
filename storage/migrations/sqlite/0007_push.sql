-- Push notifications of new articles (SQLite): the browsers' subscriptions and one durable
-- delivery row per subscription for each article announced.

-- A browser's Web Push subscription, as its push service gave it: the endpoint (a capability URL:
-- whoever knows it can push to that browser, so it is never shown), and the keys payloads are
-- encrypted to. Nothing here names the reader. refreshed_at moves each time the browser sends it
-- again (every 7 days), so long-silent subscriptions can be told apart.
CREATE TABLE push_subscriptions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  endpoint TEXT NOT NULL UNIQUE,
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  expiration_time TEXT,
  created_at TEXT NOT NULL,
  refreshed_at TEXT NOT NULL
);

-- One notification of one article to one subscription, written in the transaction that makes the
-- article public, so a crash never loses one. A worker claims due rows with a lease, like the
-- mail outbox. state: pending (to send, or to retry at next_attempt_at), sent (2xx), gone
-- (404/410: the subscription was deleted), failed (refused for good: 400/401/403/413), cancelled
-- (the article stopped being public, or the subscription went, before it was sent).
-- subscription_id becomes NULL when the subscription is deleted: the row stays, as part of the
-- article's results. An article's rows go with the article.
CREATE TABLE push_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  subscription_id INTEGER REFERENCES push_subscriptions (id) ON DELETE SET NULL,
  state TEXT NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'sent', 'gone', 'failed', 'cancelled')),
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  next_attempt_at TEXT NOT NULL,
  lease_until TEXT,
  -- The push service's last HTTP status (NULL: no answer, e.g. a timeout) and what went wrong.
  last_status INTEGER,
  last_error TEXT,
  -- When the row left pending (sent, gone, failed or cancelled).
  finished_at TEXT,
  UNIQUE (article_id, subscription_id)
);
CREATE INDEX push_deliveries_due ON push_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX push_deliveries_subscription ON push_deliveries (subscription_id);
-- An article's results are counted by state from this index alone.
CREATE INDEX push_deliveries_article_state ON push_deliveries (article_id, state);

-- notify: whether making the article public announces it (an editor may publish quietly).
-- notified_at: when it was announced. An article is announced at most once in its life, so an
-- unpublish and republish notifies no one again. Articles public before push existed count as
-- announced: republishing one of them later must not present it as new.
ALTER TABLE articles ADD COLUMN notify INTEGER NOT NULL DEFAULT 1 CHECK (notify IN (0, 1));
ALTER TABLE articles ADD COLUMN notified_at TEXT;
UPDATE articles SET notified_at = COALESCE(published_at, updated_at) WHERE status = 'published';
