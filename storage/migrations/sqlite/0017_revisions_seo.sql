-- An article's history (docs/decisions/029-revisions.md): every save keeps what the article held
-- after it, who made it and which fields it changed; autosaves of a draft within a few minutes
-- share one row; edits to a published article wait in its one pending row until Update. And the
-- fields a search engine and a social network show instead of the title, summary and cover.
ALTER TABLE articles ADD COLUMN seo_title TEXT NOT NULL DEFAULT '';
ALTER TABLE articles ADD COLUMN seo_description TEXT NOT NULL DEFAULT '';
ALTER TABLE articles ADD COLUMN social_image_url TEXT;

CREATE TABLE article_revisions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  -- saved, published, unpublished, autosaved, restored, or pending (not live yet).
  kind TEXT NOT NULL,
  -- The article's version this revision made (pending: the one it builds on).
  version INTEGER NOT NULL,
  user_id TEXT REFERENCES "user" (id) ON DELETE SET NULL,
  by_name TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL,
  slug TEXT NOT NULL,
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  body_markdown TEXT NOT NULL,
  cover_image_url TEXT,
  cover_image_alt TEXT,
  tags TEXT NOT NULL DEFAULT '[]',
  authors TEXT NOT NULL DEFAULT '[]',
  seo_title TEXT NOT NULL DEFAULT '',
  seo_description TEXT NOT NULL DEFAULT '',
  social_image_url TEXT,
  -- The fields that differ from the revision before it, comma-separated.
  changed TEXT NOT NULL DEFAULT '',
  restored_from INTEGER,
  created_at TEXT NOT NULL,
  saved_at TEXT NOT NULL
);
CREATE INDEX article_revisions_article ON article_revisions (article_id, id);
CREATE UNIQUE INDEX article_revisions_pending ON article_revisions (article_id) WHERE kind = 'pending';

-- Every article starts its history as it stands: the first revision to go back to.
INSERT INTO article_revisions (article_id, kind, version, user_id, by_name, status, slug, title,
  summary, body_markdown, cover_image_url, cover_image_alt, tags, authors, changed, restored_from,
  created_at, saved_at)
SELECT a.id, 'saved', a.version, NULL, '', a.status, a.slug, a.title, a.summary, a.body_markdown,
  a.cover_image_url, a.cover_image_alt,
  (SELECT json_group_array(name) FROM (SELECT t.name FROM article_tags l JOIN tags t ON t.id = l.tag_id
    WHERE l.article_id = a.id ORDER BY l.position)),
  (SELECT json_group_array(name) FROM (SELECT p.name FROM article_authors l JOIN authors p ON p.id = l.author_id
    WHERE l.article_id = a.id ORDER BY l.position)),
  '', NULL, a.updated_at, a.updated_at
FROM articles a ORDER BY a.id;
