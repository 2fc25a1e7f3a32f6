-- Moving in from the admin page (PostgreSQL): each import an admin starts, run by a process of its
-- own, which writes its progress here so that any instance's page can show it.
-- state: running (its process writes progress at least every few seconds: updated_at), done,
-- failed (the file could not be read: error says why). A running one whose updated_at is old
-- was stopped with its server; the page says so. progress and report: JSON.
CREATE TABLE move_in_runs (
  id TEXT PRIMARY KEY,
  format TEXT NOT NULL CHECK (format IN ('ghost', 'wordpress')),
  dry_run BOOLEAN NOT NULL,
  file_name TEXT NOT NULL,
  with_images BOOLEAN NOT NULL,
  state TEXT NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done', 'failed')),
  progress TEXT NOT NULL DEFAULT '{}',
  report TEXT,
  error TEXT,
  started_by TEXT,
  started_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  finished_at TIMESTAMPTZ
);
CREATE INDEX move_in_runs_started ON move_in_runs (started_at);
