-- Stems in the search index (decision 030, "Stems"): the site stems each article's words in its
-- language after a save ("forests" → "forest") and keeps them in articles.search_title_stems
-- (the title's) and articles.search_stems (the summary's and text's), null while due, and in
-- columns of their own in article_search (and the title's in article_search_head), matched as
-- any other. FTS5 cannot add a column to a table, so both indexes are made again; the stems
-- come as the site makes them.
ALTER TABLE articles ADD COLUMN search_stems TEXT;
ALTER TABLE articles ADD COLUMN search_title_stems TEXT;
ALTER TABLE articles ADD COLUMN search_stems_language TEXT;
CREATE INDEX articles_unstemmed ON articles (id) WHERE search_stems IS NULL;

DROP TABLE article_search;
CREATE VIRTUAL TABLE article_search USING fts5(
  title, summary, terms, body, title_stems, stems,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
INSERT INTO article_search (rowid, title, summary, terms, body, title_stems, stems)
SELECT a.id, a.title, a.summary,
  coalesce((SELECT group_concat(t.name, ' ') FROM article_tags l JOIN tags t ON t.id = l.tag_id
    WHERE l.article_id = a.id), '') || ' ' ||
  coalesce((SELECT group_concat(p.name, ' ') FROM article_authors l JOIN authors p
    ON p.id = l.author_id WHERE l.article_id = a.id), ''),
  a.body_markdown, '', ''
FROM articles a;

DROP TABLE article_search_head;
CREATE VIRTUAL TABLE article_search_head USING fts5(
  title, summary, terms, title_stems,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
INSERT INTO article_search_head (rowid, title, summary, terms, title_stems)
SELECT a.id, a.title, a.summary,
  coalesce((SELECT group_concat(t.name, ' ') FROM article_tags l JOIN tags t ON t.id = l.tag_id
    WHERE l.article_id = a.id), '') || ' ' ||
  coalesce((SELECT group_concat(p.name, ' ') FROM article_authors l JOIN authors p
    ON p.id = l.author_id WHERE l.article_id = a.id), ''),
  ''
FROM articles a;

-- After a change of the site's language: the articles naming none whose stems were made in
-- another, found from this index without reading the rows' texts.
CREATE INDEX articles_stems_language ON articles (search_stems_language, id) WHERE language = '';
