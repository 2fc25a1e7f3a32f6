-- Responsive images (docs/decisions/023-responsive-images.md). Every image gets smaller versions
-- in AVIF, WebP and its own format, made by the image-versions job from the cleaned original and
-- stored beside it; pages offer them with srcset. An image's task row is its place in that job's
-- queue: written with the upload, leased by one instance at a time, finished once its versions
-- are stored.
ALTER TABLE uploads ADD COLUMN name TEXT;
ALTER TABLE uploads ADD COLUMN alt TEXT;

CREATE TABLE upload_versions (
  upload_hash TEXT NOT NULL REFERENCES uploads (hash) ON DELETE CASCADE,
  width INTEGER NOT NULL,
  mime TEXT NOT NULL,
  height INTEGER NOT NULL,
  -- SHA-256 of these bytes: the version's ETag.
  hash TEXT NOT NULL,
  size INTEGER NOT NULL,
  bytes BYTEA NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (upload_hash, width, mime)
);

CREATE TABLE image_tasks (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  upload_hash TEXT NOT NULL UNIQUE REFERENCES uploads (hash) ON DELETE CASCADE,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TIMESTAMPTZ NOT NULL,
  lease_until TIMESTAMPTZ,
  last_error TEXT,
  -- When the versions were stored, or the job gave up on the image (last_error says why).
  finished_at TIMESTAMPTZ
);
CREATE INDEX image_tasks_due ON image_tasks (next_attempt_at) WHERE finished_at IS NULL;

-- Images already stored get their versions too, oldest first.
INSERT INTO image_tasks (upload_hash, next_attempt_at)
SELECT hash, now() FROM uploads ORDER BY id;

-- A cover's size, kept on the article so lists, live events and feeds can give it to <img>
-- without reading the image.
ALTER TABLE articles ADD COLUMN cover_image_width INTEGER;
ALTER TABLE articles ADD COLUMN cover_image_height INTEGER;
UPDATE articles SET
  cover_image_width = uploads.width,
  cover_image_height = uploads.height
FROM uploads
WHERE articles.cover_image_url LIKE '/media/' || uploads.hash || '.%';
