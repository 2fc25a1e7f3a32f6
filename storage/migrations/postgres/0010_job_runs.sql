-- Periodic jobs (PostgreSQL): the hourly passes run once per interval across every instance on
-- the database. See the SQLite migration for what each column means, and
-- docs/decisions/017-jobs-across-instances.md.
CREATE TABLE job_runs (
  name TEXT PRIMARY KEY,
  next_run_at TIMESTAMPTZ NOT NULL,
  lease_until TIMESTAMPTZ,
  holder TEXT,
  runs BIGINT NOT NULL DEFAULT 0,
  last_started_at TIMESTAMPTZ,
  last_finished_at TIMESTAMPTZ
);
