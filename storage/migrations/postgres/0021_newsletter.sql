-- The email newsletter (PostgreSQL): readers' addresses, what each follows, the weekly digests,
-- and one durable delivery row per mail per subscriber. See the SQLite migration for what each
-- column means.

CREATE TABLE subscribers (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'confirmed', 'unsubscribed', 'suspended')),
  cadence TEXT NOT NULL DEFAULT 'each' CHECK (cadence IN ('each', 'digest')),
  source TEXT NOT NULL CHECK (source IN ('form', 'import', 'staff')),
  consent_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL,
  changed_at TIMESTAMPTZ NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX subscribers_status ON subscribers (status, cadence);
CREATE INDEX subscribers_pending ON subscribers (changed_at) WHERE status = 'pending';

CREATE TABLE subscriber_tags (
  subscriber_id BIGINT NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  tag_id BIGINT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  PRIMARY KEY (subscriber_id, tag_id)
);
CREATE INDEX subscriber_tags_tag ON subscriber_tags (tag_id);

CREATE TABLE newsletter_digests (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  slot TEXT NOT NULL UNIQUE,
  period_start TIMESTAMPTZ NOT NULL,
  period_end TIMESTAMPTZ NOT NULL,
  article_ids TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE newsletter_sends (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  article_id BIGINT UNIQUE REFERENCES articles (id) ON DELETE CASCADE,
  digest_id BIGINT UNIQUE REFERENCES newsletter_digests (id) ON DELETE CASCADE,
  created_at TIMESTAMPTZ NOT NULL,
  expanded_through BIGINT NOT NULL DEFAULT 0,
  finished_at TIMESTAMPTZ,
  CHECK ((article_id IS NULL) <> (digest_id IS NULL))
);
CREATE INDEX newsletter_sends_open ON newsletter_sends (id) WHERE finished_at IS NULL;

CREATE TABLE newsletter_deliveries (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  article_id BIGINT REFERENCES articles (id) ON DELETE CASCADE,
  digest_id BIGINT REFERENCES newsletter_digests (id) ON DELETE CASCADE,
  subscriber_id BIGINT REFERENCES subscribers (id) ON DELETE SET NULL,
  state TEXT NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'sent', 'refused', 'suspended', 'failed', 'cancelled')),
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at TIMESTAMPTZ NOT NULL,
  next_attempt_at TIMESTAMPTZ NOT NULL,
  lease_until TIMESTAMPTZ,
  last_error TEXT,
  finished_at TIMESTAMPTZ,
  CHECK ((article_id IS NULL) <> (digest_id IS NULL)),
  UNIQUE (article_id, subscriber_id),
  UNIQUE (digest_id, subscriber_id)
);
CREATE INDEX newsletter_deliveries_due ON newsletter_deliveries (next_attempt_at)
  WHERE state = 'pending';
CREATE INDEX newsletter_deliveries_subscriber ON newsletter_deliveries (subscriber_id);
CREATE INDEX newsletter_deliveries_digest ON newsletter_deliveries (digest_id, state);

ALTER TABLE articles ADD COLUMN email BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE articles ADD COLUMN emailed_at TIMESTAMPTZ;
UPDATE articles SET emailed_at = COALESCE(published_at, updated_at) WHERE status = 'published';

-- The confirmation mail has an HTML part beside its text; other mail stays plain.
ALTER TABLE mail_outbox ADD COLUMN html_body TEXT;
