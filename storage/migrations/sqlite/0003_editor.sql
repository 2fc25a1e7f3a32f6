-- The editor area: scheduled publishing, images, API keys, shared rate limits and deactivated
-- accounts (SQLite).

-- A draft with publish_at set is scheduled; the publishing job takes it when the time comes.
ALTER TABLE articles ADD COLUMN publish_at TEXT;
CREATE INDEX articles_due ON articles (publish_at) WHERE publish_at IS NOT NULL;
-- The editor's list, most recently edited first.
CREATE INDEX articles_updated ON articles (updated_at DESC, id DESC);

-- Images live in the database, so every instance serves every image and a backup holds them.
-- hash is the SHA-256 of the bytes: the image's address, so a stored image never changes.
CREATE TABLE uploads (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hash TEXT NOT NULL UNIQUE,
  mime TEXT NOT NULL,
  size INTEGER NOT NULL,
  width INTEGER,
  height INTEGER,
  bytes BLOB NOT NULL,
  created_by TEXT,
  created_at TEXT NOT NULL
);

-- Keys for the admin API: only a SHA-256 of the key is kept; prefix is shown to tell keys apart.
CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_by TEXT NOT NULL REFERENCES "user" (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);

-- Fixed-window counters shared by every instance (per-account sign-in, resets, the contact form).
CREATE TABLE rate_limits (
  key TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL
);

-- A deactivated account keeps its articles' history but cannot sign in.
ALTER TABLE "user" ADD COLUMN "deactivatedAt" TEXT;
