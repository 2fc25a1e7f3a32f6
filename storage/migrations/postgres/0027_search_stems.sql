-- Stems in the search index (decision 030, "Stems"): the site stems each article's words in its
-- language after a save ("forests" → "forest") and keeps them in articles.search_stems (null
-- while due) and as weight-D words of articles.search, matched as any other. search_head
-- (weights A and B) holds none.
ALTER TABLE articles ADD COLUMN search_stems TEXT;
ALTER TABLE articles ADD COLUMN search_stems_language TEXT;
CREATE INDEX articles_unstemmed ON articles (id) WHERE search_stems IS NULL;
