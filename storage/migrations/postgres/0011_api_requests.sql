-- Repeatable creates through the admin API (PostgreSQL). See the SQLite migration for what each
-- column means, and docs/decisions/016-database-outages.md.
CREATE TABLE api_requests (
  user_id TEXT NOT NULL REFERENCES "user" (id) ON DELETE CASCADE,
  idempotency_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  article_id BIGINT NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  created_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (user_id, idempotency_key)
);
CREATE INDEX api_requests_created ON api_requests (created_at);
