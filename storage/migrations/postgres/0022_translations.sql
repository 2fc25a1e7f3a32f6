-- Articles and pages in several languages (PostgreSQL). See the SQLite migration for what each
-- column and index is for.

ALTER TABLE articles ADD COLUMN language TEXT NOT NULL DEFAULT '';
ALTER TABLE articles ADD COLUMN translation_of BIGINT REFERENCES articles (id) ON DELETE SET NULL;
CREATE INDEX articles_translation_of ON articles (translation_of) WHERE translation_of IS NOT NULL;

CREATE INDEX articles_language_order
  ON articles (status, language, kind, published_at DESC, id DESC);
