-- Full-text search of articles and pages (docs/decisions/030-search.md): FTS5, words folded to
-- lower case without diacritics, prefixes of 2 and 3 letters indexed for words being typed. The
-- index keeps no copy of the text (contentless): results are read from articles by rowid, the
-- article's id. Kept in step by every save, in its transaction.
CREATE VIRTUAL TABLE article_search USING fts5(
  title, summary, terms, body,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);

INSERT INTO article_search (rowid, title, summary, terms, body)
SELECT a.id, a.title, a.summary,
  coalesce((SELECT group_concat(t.name, ' ') FROM article_tags l JOIN tags t ON t.id = l.tag_id
    WHERE l.article_id = a.id), '') || ' ' ||
  coalesce((SELECT group_concat(p.name, ' ') FROM article_authors l JOIN authors p
    ON p.id = l.author_id WHERE l.article_id = a.id), ''),
  a.body_markdown
FROM articles a;
