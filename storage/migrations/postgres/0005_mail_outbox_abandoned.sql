-- Mail the outbox has given up on after its last retry (PostgreSQL). It stays for the operator to
-- see and is never taken again; the due index leaves it out.
ALTER TABLE mail_outbox ADD COLUMN abandoned_at TIMESTAMPTZ;
DROP INDEX mail_outbox_due;
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND abandoned_at IS NULL;
