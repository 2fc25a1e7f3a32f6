-- Remote configuration (SQLite): every version editors publish, kept for good. A version holds
-- the whole configuration as one JSON document (docs/decisions/013-remote-config.md).

-- id: 1, 2, 3 … in publishing order, set by the publisher as the version it built on plus one,
-- so two editors publishing on the same version cannot both succeed (the key refuses the
-- second). created_by: the editor's user id, NULL for the CLI or once the account is deleted;
-- created_by_name keeps the name shown beside the version either way. restored_from: set by a
-- rollback, the version whose document this one copies.
CREATE TABLE config_versions (
  id INTEGER PRIMARY KEY CHECK (id > 0),
  document TEXT NOT NULL CHECK (json_valid(document)),
  created_at TEXT NOT NULL,
  created_by TEXT REFERENCES "user" (id) ON DELETE SET NULL,
  created_by_name TEXT NOT NULL,
  summary TEXT NOT NULL,
  restored_from INTEGER REFERENCES config_versions (id)
);
