-- Search on large sites (decision 030): the title's, summary's, tags' and authors' words (weights
-- A and B) in a vector of their own, small enough to rank many matches by; kept in step with
-- `search` by PostgreSQL.
ALTER TABLE articles ADD COLUMN search_head tsvector
  GENERATED ALWAYS AS (ts_filter(search, '{a,b}')) STORED;
CREATE INDEX articles_search_head ON articles USING gin (search_head);
