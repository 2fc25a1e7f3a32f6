-- Addresses that moved: renaming a published article's or page's slug records a 301 from its old
-- address (automatic), and admins add their own (an old site's addresses, short links). A
-- redirect is followed only where the site has nothing of its own: content always wins.
-- See docs/decisions/025-redirects.md.
CREATE TABLE redirects (
  from_path TEXT PRIMARY KEY,
  to_path TEXT NOT NULL,
  status INTEGER NOT NULL DEFAULT 301 CHECK (status IN (301, 302)),
  automatic INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE INDEX redirects_to ON redirects (to_path);
