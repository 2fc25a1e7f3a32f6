-- Tags and authors become things with a page of their own (docs/decisions/026-tags-and-authors.md):
-- a tag has a name, an address, a description and a cover; an author is a public profile, linked
-- to a team account when there is one. An article has tags and one or more authors, in order,
-- through the two link tables; the free-text columns they replace are moved over and dropped.
CREATE TABLE tags (
  id BIGSERIAL PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  cover_image_url TEXT,
  cover_image_alt TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE article_tags (
  article_id BIGINT NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  tag_id BIGINT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (article_id, tag_id)
);
CREATE INDEX article_tags_tag ON article_tags (tag_id, article_id);

CREATE TABLE authors (
  id BIGSERIAL PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  bio TEXT NOT NULL DEFAULT '',
  avatar_url TEXT,
  website TEXT,
  -- The team account this profile belongs to, when it belongs to one.
  user_id TEXT UNIQUE REFERENCES "user" (id) ON DELETE SET NULL,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE article_authors (
  article_id BIGINT NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  author_id BIGINT NOT NULL REFERENCES authors (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (article_id, author_id)
);
CREATE INDEX article_authors_author ON article_authors (author_id, article_id);

-- Every tag and author name already written, with an address made from it: lowercase, anything
-- but letters and digits as hyphens (names that differ only so become one). The app's own rule
-- (slugify) also drops accents; a tag found by its exact name is the same tag either way.
CREATE TEMP TABLE term_names AS
SELECT a.id AS article_id, 'tag' AS kind, trim(t.name) AS name, (t.position - 1)::int AS position
FROM articles a, jsonb_array_elements_text(
  CASE WHEN jsonb_typeof(a.tags) = 'array' THEN a.tags ELSE '[]'::jsonb END
) WITH ORDINALITY AS t (name, position)
WHERE trim(t.name) <> ''
UNION ALL
SELECT id, 'author', trim(author_name), 0 FROM articles WHERE trim(author_name) <> '';
ALTER TABLE term_names ADD COLUMN slug TEXT;
UPDATE term_names SET slug = left(trim(BOTH '-' FROM
  regexp_replace(lower(replace(name, '&', ' and ')), '[^[:alnum:]]+', '-', 'g')), 80);
UPDATE term_names SET slug = kind || '-' || md5(name) WHERE slug = '';

INSERT INTO tags (slug, name, created_at, updated_at)
SELECT slug, min(name COLLATE "C"), now(), now()
FROM term_names WHERE kind = 'tag' GROUP BY slug ORDER BY min(article_id);
INSERT INTO article_tags (article_id, tag_id, position)
SELECT n.article_id, t.id, min(n.position)
FROM term_names n JOIN tags t ON t.slug = n.slug WHERE n.kind = 'tag' GROUP BY n.article_id, t.id;

INSERT INTO authors (slug, name, created_at, updated_at)
SELECT slug, min(name COLLATE "C"), now(), now()
FROM term_names WHERE kind = 'author' GROUP BY slug ORDER BY min(article_id);
INSERT INTO article_authors (article_id, author_id, position)
SELECT n.article_id, a.id, 0
FROM term_names n JOIN authors a ON a.slug = n.slug WHERE n.kind = 'author' GROUP BY n.article_id, a.id;
-- A profile named as exactly one team member is theirs.
UPDATE authors SET user_id = (SELECT u.id FROM "user" u WHERE u.name = authors.name)
WHERE (SELECT count(*) FROM "user" u WHERE u.name = authors.name) = 1;
DROP TABLE term_names;

ALTER TABLE articles DROP COLUMN tags;
ALTER TABLE articles DROP COLUMN author_name;
