-- Repeatable creates through the admin API (SQLite): a POST /api/admin/articles sent with an
-- Idempotency-Key is written here in the transaction that makes the article. Sent again with the
-- same key (after a timeout, or a 503 that cut the answer off), it answers with that article
-- instead of making a second one. See docs/decisions/016-database-outages.md.
-- fingerprint: SHA-256 of the request's body; the same key with another body is refused.
-- Rows older than a day are deleted by the next create that brings a key.
CREATE TABLE api_requests (
  user_id TEXT NOT NULL REFERENCES "user" (id) ON DELETE CASCADE,
  idempotency_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (user_id, idempotency_key)
);
CREATE INDEX api_requests_created ON api_requests (created_at);
