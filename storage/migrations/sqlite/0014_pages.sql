-- Pages (About, Donate, Privacy…) are rows of the articles table with kind 'page': the same
-- editor, drafts, scheduling, images and change feed, served at /<slug> instead of
-- /articles/<slug>, and never in the article lists, feeds or push notices. One slug namespace
-- for both, so an address is never ambiguous. See docs/decisions/024-pages.md.
ALTER TABLE articles ADD COLUMN kind TEXT NOT NULL DEFAULT 'article' CHECK (kind IN ('article', 'page'));
