-- The contact form's messages and the durable mail outbox (SQLite).

-- What a visitor typed, and when; never their address. idempotency_key comes from the form, so
-- a double-click or a resubmitted form stores one message.
CREATE TABLE contact_messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  idempotency_key TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  subject TEXT NOT NULL DEFAULT '',
  message TEXT NOT NULL,
  created_at TEXT NOT NULL,
  read_at TEXT,
  archived_at TEXT
);
CREATE INDEX contact_messages_inbox ON contact_messages (created_at DESC, id DESC);

-- Mail waiting to go out. A row is written in the same transaction as what it announces, so a
-- crash never loses a notification; a worker claims due rows with a lease and retries with backoff.
CREATE TABLE mail_outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  recipient TEXT NOT NULL,
  subject TEXT NOT NULL,
  text_body TEXT NOT NULL,
  reply_to TEXT,
  created_at TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  lease_until TEXT,
  last_error TEXT,
  sent_at TEXT
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL;
