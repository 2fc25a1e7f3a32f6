-- Canopy's first schema (SQLite). Times are ISO-8601 UTC strings from Date#toISOString,
-- so they sort and compare as text.

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE articles (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  slug TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  body_markdown TEXT NOT NULL,
  body_html TEXT NOT NULL,
  cover_image_url TEXT,
  cover_image_alt TEXT,
  tags TEXT NOT NULL DEFAULT '[]',
  author_name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('draft', 'published')),
  reading_minutes INTEGER NOT NULL,
  published_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
);

-- Serves the public list newest first and its keyset cursor.
CREATE INDEX articles_published_order ON articles (status, published_at DESC, id DESC);

-- The change feed behind the live stream. AUTOINCREMENT keeps ids monotonic even after pruning.
CREATE TABLE changes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  topic TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('added', 'modified', 'removed')),
  created_at TEXT NOT NULL
);

-- One row: change ids at or below pruned_through are gone; a client behind it must reload.
CREATE TABLE change_horizon (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  pruned_through INTEGER NOT NULL
);
INSERT INTO change_horizon (id, pruned_through) VALUES (1, 0);
