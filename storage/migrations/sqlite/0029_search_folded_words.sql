-- The search indexes given their words folded as queries look for them (decision 030, "Every
-- script"): FTS5's unicode61 tokenizer removes the diacritics of Latin letters only, so "الأرض",
-- "ελλάδα" or "новый" were kept as written while a query looked for "الارض", "ελλαδα" and
-- "новыи", and found nothing. canopy_fold is the site's own fold (indexedText), which Canopy
-- gives every connection it opens (open-sqlite.ts): the triggers below call it, so a write to
-- contact_messages or uploads from a tool other than Canopy (the sqlite3 shell) fails with "no
-- such function" rather than leaving the index behind.
INSERT INTO article_search (article_search) VALUES ('delete-all');
INSERT INTO article_search (rowid, title, summary, terms, body, title_stems, stems)
SELECT a.id, canopy_fold(a.title), canopy_fold(a.summary),
  canopy_fold(coalesce((SELECT group_concat(t.name, ' ') FROM article_tags l JOIN tags t
    ON t.id = l.tag_id WHERE l.article_id = a.id), '') || ' ' ||
  coalesce((SELECT group_concat(p.name, ' ') FROM article_authors l JOIN authors p
    ON p.id = l.author_id WHERE l.article_id = a.id), '')),
  canopy_fold(a.body_markdown), coalesce(a.search_title_stems, ''), coalesce(a.search_stems, '')
FROM articles a;

INSERT INTO article_search_head (article_search_head) VALUES ('delete-all');
INSERT INTO article_search_head (rowid, title, summary, terms, title_stems)
SELECT a.id, canopy_fold(a.title), canopy_fold(a.summary),
  canopy_fold(coalesce((SELECT group_concat(t.name, ' ') FROM article_tags l JOIN tags t
    ON t.id = l.tag_id WHERE l.article_id = a.id), '') || ' ' ||
  coalesce((SELECT group_concat(p.name, ' ') FROM article_authors l JOIN authors p
    ON p.id = l.author_id WHERE l.article_id = a.id), '')),
  coalesce(a.search_title_stems, '')
FROM articles a;

DROP TRIGGER contact_messages_search_insert;
DROP TRIGGER contact_messages_search_update;
CREATE TRIGGER contact_messages_search_insert AFTER INSERT ON contact_messages BEGIN
  INSERT INTO message_search (rowid, name, email, subject, message)
  VALUES (new.id, canopy_fold(new.name), canopy_fold(new.email), canopy_fold(new.subject),
    canopy_fold(new.message));
END;
CREATE TRIGGER contact_messages_search_update
AFTER UPDATE OF name, email, subject, message ON contact_messages BEGIN
  DELETE FROM message_search WHERE rowid = old.id;
  INSERT INTO message_search (rowid, name, email, subject, message)
  VALUES (new.id, canopy_fold(new.name), canopy_fold(new.email), canopy_fold(new.subject),
    canopy_fold(new.message));
END;
INSERT INTO message_search (message_search) VALUES ('delete-all');
INSERT INTO message_search (rowid, name, email, subject, message)
SELECT id, canopy_fold(name), canopy_fold(email), canopy_fold(subject), canopy_fold(message)
FROM contact_messages;

DROP TRIGGER uploads_search_insert;
DROP TRIGGER uploads_search_update;
CREATE TRIGGER uploads_search_insert AFTER INSERT ON uploads BEGIN
  INSERT INTO upload_search (rowid, name, alt)
  VALUES (new.id, canopy_fold(new.name), canopy_fold(new.alt));
END;
CREATE TRIGGER uploads_search_update AFTER UPDATE OF name, alt ON uploads BEGIN
  DELETE FROM upload_search WHERE rowid = old.id;
  INSERT INTO upload_search (rowid, name, alt)
  VALUES (new.id, canopy_fold(new.name), canopy_fold(new.alt));
END;
INSERT INTO upload_search (upload_search) VALUES ('delete-all');
INSERT INTO upload_search (rowid, name, alt)
SELECT id, canopy_fold(name), canopy_fold(alt) FROM uploads;
