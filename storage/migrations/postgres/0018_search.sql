-- Full-text search of articles and pages (docs/decisions/030-search.md): a weighted tsvector per
-- article (title A, summary and its tags and authors B, text C) in the 'simple' configuration,
-- of words the site folds itself (lower case, diacritics removed) so no extension is needed, and
-- a GIN index. Kept in step by every save, in its transaction.
ALTER TABLE articles ADD COLUMN search tsvector NOT NULL DEFAULT ''::tsvector;
CREATE INDEX articles_search ON articles USING gin (search);

-- Existing articles: diacritics of the Latin alphabets folded here as the site folds them, and
-- words split where the site splits them.
CREATE FUNCTION pg_temp.fold(text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT translate(translate(lower($1),
    'àáâãäåçèéêëìíîïñòóôõöùúûüýÿāăąćĉċčďēĕėęěĝğġģĥĩīĭįĵķĺļľńņňōŏőŕŗřśŝşšţťũūŭůűųŵŷźżž',
    'aaaaaaceeeeiiiinooooouuuuyyaaaccccdeeeeegggghiiiijklllnnnooorrrssssttuuuuuuwyzzz'),
    -- The characters PostgreSQL's parser joins words with ("clean-up"), made spaces.
    '-/.@_:+', '       ')
$$;
UPDATE articles a SET search =
  setweight(to_tsvector('simple', pg_temp.fold(a.title)), 'A') ||
  setweight(to_tsvector('simple', pg_temp.fold(a.summary || ' ' ||
    coalesce((SELECT string_agg(t.name, ' ') FROM article_tags l JOIN tags t ON t.id = l.tag_id
      WHERE l.article_id = a.id), '') || ' ' ||
    coalesce((SELECT string_agg(p.name, ' ') FROM article_authors l JOIN authors p
      ON p.id = l.author_id WHERE l.article_id = a.id), ''))), 'B') ||
  setweight(to_tsvector('simple', pg_temp.fold(a.body_markdown)), 'C');
