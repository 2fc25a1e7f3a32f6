-- At most one import from Ghost or WordPress runs at a time, whichever instance starts it: a
-- second running row cannot be written (the repository first closes runs whose process stopped).
CREATE UNIQUE INDEX move_in_runs_one_running ON move_in_runs (state) WHERE state = 'running';

-- A failed webhook delivery an admin sends again keeps the time of its event (the body's
-- timestamp); its day of retries counts from when it was sent again.
ALTER TABLE webhook_deliveries ADD COLUMN resent_at TIMESTAMPTZ;
