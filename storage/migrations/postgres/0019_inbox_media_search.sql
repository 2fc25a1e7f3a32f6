-- The staff's inbox and media library searched through tsvectors as articles are (decision 030).
-- canopy_fold is how PostgreSQL folds words where the site's own foldText cannot run: lower case,
-- the Latin alphabets' diacritics removed, and the characters PostgreSQL's parser joins words
-- with ("clean-up", "ana@example.org") made spaces. Generated columns keep each row's words in
-- step with every write; changing the function means recomputing them.
CREATE FUNCTION canopy_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT translate(translate(lower($1),
    'àáâãäåçèéêëìíîïñòóôõöùúûüýÿāăąćĉċčďēĕėęěĝğġģĥĩīĭįĵķĺļľńņňōŏőŕŗřśŝşšţťũūŭůűųŵŷźżž',
    'aaaaaaceeeeiiiinooooouuuuyyaaaccccdeeeeegggghiiiijklllnnnooorrrssssttuuuuuuwyzzz'),
    '-/.@_:+', '       ')
$$;

ALTER TABLE contact_messages ADD COLUMN search tsvector GENERATED ALWAYS AS (
  to_tsvector('simple', canopy_fold(name || ' ' || email || ' ' || subject || ' ' || message))
) STORED;
CREATE INDEX contact_messages_search ON contact_messages USING gin (search);

ALTER TABLE uploads ADD COLUMN search tsvector GENERATED ALWAYS AS (
  to_tsvector('simple', canopy_fold(coalesce(name, '') || ' ' || coalesce(alt, '')))
) STORED;
CREATE INDEX uploads_search ON uploads USING gin (search);
