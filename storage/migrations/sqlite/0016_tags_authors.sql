-- Tags and authors become things with a page of their own (docs/decisions/026-tags-and-authors.md):
-- a tag has a name, an address, a description and a cover; an author is a public profile, linked
-- to a team account when there is one. An article has tags and one or more authors, in order,
-- through the two link tables; the free-text columns they replace are moved over and dropped.
CREATE TABLE tags (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  cover_image_url TEXT,
  cover_image_alt TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE article_tags (
  article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  tag_id INTEGER NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (article_id, tag_id)
);
CREATE INDEX article_tags_tag ON article_tags (tag_id, article_id);

CREATE TABLE authors (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  bio TEXT NOT NULL DEFAULT '',
  avatar_url TEXT,
  website TEXT,
  -- The team account this profile belongs to, when it belongs to one.
  user_id TEXT UNIQUE REFERENCES "user" (id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE article_authors (
  article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES authors (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (article_id, author_id)
);
CREATE INDEX article_authors_author ON article_authors (author_id, article_id);

-- Every tag and author name already written, with an address made from it: lowercase, spaces
-- and punctuation as hyphens (names that differ only so become one). The app's own rule
-- (slugify) also drops accents; a tag found by its exact name is the same tag either way.
CREATE TEMP TABLE term_names (article_id INTEGER, kind TEXT, name TEXT, position INTEGER, slug TEXT);
INSERT INTO term_names
SELECT a.id, 'tag', trim(j.value), j.key, '' FROM articles a, json_each(a.tags) j
WHERE json_valid(a.tags) AND trim(j.value) <> '';
INSERT INTO term_names
SELECT id, 'author', trim(author_name), 0, '' FROM articles WHERE trim(author_name) <> '';
UPDATE term_names SET slug = lower(replace(replace(replace(replace(replace(replace(replace(
  replace(replace(replace(replace(replace(replace(replace(replace(replace(name,
  '&', '-and-'), ' ', '-'), '/', '-'), '.', '-'), ',', '-'), '''', '-'), '"', '-'), '(', '-'),
  ')', '-'), '!', '-'), '?', '-'), ':', '-'), ';', '-'), '#', '-'), '+', '-'), '_', '-'));
UPDATE term_names SET slug = replace(replace(replace(slug, '----', '-'), '--', '-'), '--', '-');
UPDATE term_names SET slug = trim(slug, '-');
UPDATE term_names SET slug = kind || '-' || lower(hex(name)) WHERE slug = '';
UPDATE term_names SET slug = substr(slug, 1, 80);

INSERT INTO tags (slug, name, created_at, updated_at)
SELECT slug, min(name), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM term_names WHERE kind = 'tag' GROUP BY slug ORDER BY min(article_id);
INSERT INTO article_tags (article_id, tag_id, position)
SELECT n.article_id, t.id, min(n.position)
FROM term_names n JOIN tags t ON t.slug = n.slug WHERE n.kind = 'tag' GROUP BY n.article_id, t.id;

INSERT INTO authors (slug, name, created_at, updated_at)
SELECT slug, min(name), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
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
