-- The editor area: scheduled publishing, images, API keys, shared rate limits and deactivated
-- accounts (PostgreSQL).

ALTER TABLE articles ADD COLUMN publish_at TIMESTAMPTZ;
CREATE INDEX articles_due ON articles (publish_at) WHERE publish_at IS NOT NULL;
CREATE INDEX articles_updated ON articles (updated_at DESC, id DESC);

CREATE TABLE uploads (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  mime TEXT NOT NULL,
  size INTEGER NOT NULL,
  width INTEGER,
  height INTEGER,
  bytes BYTEA NOT NULL,
  created_by TEXT,
  created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE api_keys (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_by TEXT NOT NULL REFERENCES "user" (id) ON DELETE CASCADE,
  created_at TIMESTAMPTZ NOT NULL,
  last_used_at TIMESTAMPTZ,
  revoked_at TIMESTAMPTZ
);

CREATE TABLE rate_limits (
  key TEXT PRIMARY KEY,
  window_start BIGINT NOT NULL,
  count INTEGER NOT NULL
);

ALTER TABLE "user" ADD COLUMN "deactivatedAt" TIMESTAMPTZ;
