-- Stems in the search index (decision 030, "Stems"): the site stems each article's words in its
-- language after a save ("forests" → "forest") and keeps them in articles.search_title_stems
-- (the title's) and articles.search_stems (the summary's and text's), null while due. In
-- articles.search the title's stems weigh as the title (A, so search_head holds them too) and
-- the others least (D).
ALTER TABLE articles ADD COLUMN search_stems TEXT;
ALTER TABLE articles ADD COLUMN search_title_stems TEXT;
ALTER TABLE articles ADD COLUMN search_stems_language TEXT;
CREATE INDEX articles_unstemmed ON articles (id) WHERE search_stems IS NULL;

-- After a change of the site's language: the articles naming none whose stems were made in
-- another, found from this index without reading the rows.
CREATE INDEX articles_stems_language ON articles (search_stems_language, id) WHERE language = '';
