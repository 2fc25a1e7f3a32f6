-- Remote configuration (PostgreSQL): every version editors publish, kept for good. See the
-- SQLite migration for what each column means.

CREATE TABLE config_versions (
  id BIGINT PRIMARY KEY CHECK (id > 0),
  document JSONB NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  created_by TEXT REFERENCES "user" (id) ON DELETE SET NULL,
  created_by_name TEXT NOT NULL,
  summary TEXT NOT NULL,
  restored_from BIGINT REFERENCES config_versions (id)
);
