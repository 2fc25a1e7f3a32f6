-- Articles and pages in several languages (SQLite).

-- language: a BCP 47 tag ('es', 'pt-BR', 'ar'); '' is the site's own language, as every article
-- written before now is. translation_of: the original this row is a translation of; NULL for an
-- original. Groups are flat, an original and its translations, all of one kind: the repository
-- refuses a link to a translation, to the other kind or to the row itself, in the save's
-- transaction. Deleting the original leaves its translations as originals of their own.
-- SQLite takes a foreign key in ALTER TABLE ADD COLUMN when the column's default is NULL, as here;
-- it acts because the storage turns foreign_keys on for its connection (open-sqlite.ts).
ALTER TABLE articles ADD COLUMN language TEXT NOT NULL DEFAULT '';
ALTER TABLE articles ADD COLUMN translation_of INTEGER REFERENCES articles (id) ON DELETE SET NULL;
-- An original's translations, and what the foreign key's SET NULL looks up when one is deleted.
-- Of the linked rows alone: most articles are originals, and statistics then describe the links.
CREATE INDEX articles_translation_of ON articles (translation_of) WHERE translation_of IS NOT NULL;

-- The public list in one language (and in the site's own), newest first, with its keyset cursor:
-- one range of this index per language, holding every column the filter reads. The list without
-- a language keeps articles_published_order: with language second, this index cannot give that
-- order, and the planner leaves it be.
CREATE INDEX articles_language_order
  ON articles (status, language, kind, published_at DESC, id DESC);

-- A tag's or an author's newest articles in a language read the language where they read the
-- status and kind (migration 0020): from this covering index, never from the row, at whose end
-- the column is.
DROP INDEX articles_visibility;
CREATE INDEX articles_visibility ON articles (id, status, kind, published_at, language);
