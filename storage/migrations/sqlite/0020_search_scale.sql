-- Search on large sites (decision 030). The title, summary, tags and authors in an index of
-- their own, whose short lists rank the matches of a common word without reading the text's
-- long ones; kept in step by every save, as article_search is.
CREATE VIRTUAL TABLE article_search_head USING fts5(
  title, summary, terms,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
INSERT INTO article_search_head (rowid, title, summary, terms)
SELECT a.id, a.title, a.summary,
  coalesce((SELECT group_concat(t.name, ' ') FROM article_tags l JOIN tags t ON t.id = l.tag_id
    WHERE l.article_id = a.id), '') || ' ' ||
  coalesce((SELECT group_concat(p.name, ' ') FROM article_authors l JOIN authors p
    ON p.id = l.author_id WHERE l.article_id = a.id), '')
FROM articles a;

-- Whether a match is published, an article or a page, and when it was published, read from this
-- covering index, never from the row, whose long texts come before those columns (search, and a
-- tag's or an author's newest articles).
CREATE INDEX articles_visibility ON articles (id, status, kind, published_at);
