-- Periodic jobs (SQLite): the hourly passes (message retention, privacy clean-up, push clean-up,
-- analytics roll-up, change pruning) run once per interval across every instance on the
-- database, not once per instance. See docs/decisions/017-jobs-across-instances.md.

-- One row per job, made by the first instance to look for it. An instance runs a pass only after
-- claiming the row: one conditional UPDATE that succeeds when the pass is due (next_run_at has
-- come) and nobody holds a live lease (lease_until empty or past). The holder renews its lease
-- while the pass runs and, when it is done, clears the lease and sets next_run_at. A holder that
-- dies leaves its lease to run out, and another instance takes the pass over.
-- holder: which process holds it (host:pid:random), for the operator and the tests.
-- runs: passes finished, whoever ran them.
CREATE TABLE job_runs (
  name TEXT PRIMARY KEY,
  next_run_at TEXT NOT NULL,
  lease_until TEXT,
  holder TEXT,
  runs INTEGER NOT NULL DEFAULT 0,
  last_started_at TEXT,
  last_finished_at TEXT
);
