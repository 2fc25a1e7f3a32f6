-- The email newsletter (SQLite): readers' addresses, what each follows, the weekly digests, each
-- mail to send (written in the transaction that publishes an article, or makes a digest), and one
-- durable delivery row per mail per subscriber, sent by a leased worker like push deliveries.

-- A reader's address, lower-cased. status: pending (asked, not confirmed: nothing is sent; deleted
-- after a few days), confirmed, unsubscribed, suspended (the mail server refused it for good too
-- often). cadence: each (every new article) or digest (the weekly one). source: form, import or
-- staff. consent_at: when consent was given (the confirmation, or the import's statement).
-- failures: permanent refusals since the last mail that went through.
CREATE TABLE subscribers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  email TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'confirmed', 'unsubscribed', 'suspended')),
  cadence TEXT NOT NULL DEFAULT 'each' CHECK (cadence IN ('each', 'digest')),
  source TEXT NOT NULL CHECK (source IN ('form', 'import', 'staff')),
  consent_at TEXT,
  created_at TEXT NOT NULL,
  changed_at TEXT NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX subscribers_status ON subscribers (status, cadence);
CREATE INDEX subscribers_pending ON subscribers (changed_at) WHERE status = 'pending';

-- The tags a subscriber follows; none: every article.
CREATE TABLE subscriber_tags (
  subscriber_id INTEGER NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  tag_id INTEGER NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  PRIMARY KEY (subscriber_id, tag_id)
);
CREATE INDEX subscriber_tags_tag ON subscriber_tags (tag_id);

-- One weekly digest: `slot` names its hour in the site's time zone, so instances making it at the
-- same moment make one. article_ids: JSON array of the articles it carries, newest first.
CREATE TABLE newsletter_digests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  slot TEXT NOT NULL UNIQUE,
  period_start TEXT NOT NULL,
  period_end TEXT NOT NULL,
  article_ids TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- One mail to send (an article's, or a digest's), written in the transaction that publishes the
-- article or makes the digest: one row, however many readers. The delivery worker then writes its
-- deliveries in batches, through the subscribers in id order: expanded_through is the highest
-- subscriber id gone through, finished_at set once all were (or the article stopped being public).
CREATE TABLE newsletter_sends (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  article_id INTEGER UNIQUE REFERENCES articles (id) ON DELETE CASCADE,
  digest_id INTEGER UNIQUE REFERENCES newsletter_digests (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expanded_through INTEGER NOT NULL DEFAULT 0,
  finished_at TEXT,
  CHECK ((article_id IS NULL) <> (digest_id IS NULL))
);
CREATE INDEX newsletter_sends_open ON newsletter_sends (id) WHERE finished_at IS NULL;

-- One mail (an article's, or a digest's) to one subscriber. state: pending (to send, or to retry
-- at next_attempt_at), sent, refused (a permanent 5xx), suspended (the refusal that suspended the
-- address), failed (out of retries), cancelled (unsubscribed, or the article stopped being public,
-- before it went). subscriber_id becomes NULL when the subscriber is deleted: the row stays, as
-- an anonymous count in the mail's figures.
CREATE TABLE newsletter_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  article_id INTEGER REFERENCES articles (id) ON DELETE CASCADE,
  digest_id INTEGER REFERENCES newsletter_digests (id) ON DELETE CASCADE,
  subscriber_id INTEGER REFERENCES subscribers (id) ON DELETE SET NULL,
  state TEXT NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'sent', 'refused', 'suspended', 'failed', 'cancelled')),
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  next_attempt_at TEXT NOT NULL,
  lease_until TEXT,
  last_error TEXT,
  finished_at TEXT,
  CHECK ((article_id IS NULL) <> (digest_id IS NULL)),
  UNIQUE (article_id, subscriber_id),
  UNIQUE (digest_id, subscriber_id)
);
CREATE INDEX newsletter_deliveries_due ON newsletter_deliveries (next_attempt_at)
  WHERE state = 'pending';
CREATE INDEX newsletter_deliveries_subscriber ON newsletter_deliveries (subscriber_id);
CREATE INDEX newsletter_deliveries_digest ON newsletter_deliveries (digest_id, state);

-- email: whether making the article public for the first time mails it to subscribers (the
-- editor's "Email subscribers"), as notify is for push. emailed_at: when it was mailed, at most
-- once in its life. Articles public before the newsletter existed count as mailed: republishing
-- one later must not present it as new.
ALTER TABLE articles ADD COLUMN email INTEGER NOT NULL DEFAULT 1 CHECK (email IN (0, 1));
ALTER TABLE articles ADD COLUMN emailed_at TEXT;
UPDATE articles SET emailed_at = COALESCE(published_at, updated_at) WHERE status = 'published';

-- The confirmation mail has an HTML part beside its text; other mail stays plain.
ALTER TABLE mail_outbox ADD COLUMN html_body TEXT;
