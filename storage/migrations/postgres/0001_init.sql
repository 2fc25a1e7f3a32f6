-- Canopy's first schema (PostgreSQL).

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE articles (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  body_markdown TEXT NOT NULL,
  body_html TEXT NOT NULL,
  cover_image_url TEXT,
  cover_image_alt TEXT,
  tags JSONB NOT NULL DEFAULT '[]',
  author_name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('draft', 'published')),
  reading_minutes INTEGER NOT NULL,
  published_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
);

CREATE INDEX articles_published_order ON articles (status, published_at DESC, id DESC);

-- Writers take an advisory lock before inserting here, so ids commit in order and a reader
-- that has seen id N has seen every id below it.
CREATE TABLE changes (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  topic TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('added', 'modified', 'removed')),
  created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE change_horizon (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  pruned_through BIGINT NOT NULL
);
INSERT INTO change_horizon (id, pruned_through) VALUES (1, 0);
