-- The staff's inbox and media library searched through FTS5 as articles are (decision 030):
-- contentless tables keyed by the row's id, folded the same way, kept in step by triggers in
-- the writing transaction, so every way a message or an image is written, imported or deleted
-- is covered.
CREATE VIRTUAL TABLE message_search USING fts5(
  name, email, subject, message,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
INSERT INTO message_search (rowid, name, email, subject, message)
SELECT id, name, email, subject, message FROM contact_messages;

CREATE TRIGGER contact_messages_search_insert AFTER INSERT ON contact_messages BEGIN
  INSERT INTO message_search (rowid, name, email, subject, message)
  VALUES (new.id, new.name, new.email, new.subject, new.message);
END;
CREATE TRIGGER contact_messages_search_update
AFTER UPDATE OF name, email, subject, message ON contact_messages BEGIN
  DELETE FROM message_search WHERE rowid = old.id;
  INSERT INTO message_search (rowid, name, email, subject, message)
  VALUES (new.id, new.name, new.email, new.subject, new.message);
END;
CREATE TRIGGER contact_messages_search_delete AFTER DELETE ON contact_messages BEGIN
  DELETE FROM message_search WHERE rowid = old.id;
END;

CREATE VIRTUAL TABLE upload_search USING fts5(
  name, alt,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
INSERT INTO upload_search (rowid, name, alt) SELECT id, name, alt FROM uploads;

CREATE TRIGGER uploads_search_insert AFTER INSERT ON uploads BEGIN
  INSERT INTO upload_search (rowid, name, alt) VALUES (new.id, new.name, new.alt);
END;
CREATE TRIGGER uploads_search_update AFTER UPDATE OF name, alt ON uploads BEGIN
  DELETE FROM upload_search WHERE rowid = old.id;
  INSERT INTO upload_search (rowid, name, alt) VALUES (new.id, new.name, new.alt);
END;
CREATE TRIGGER uploads_search_delete AFTER DELETE ON uploads BEGIN
  DELETE FROM upload_search WHERE rowid = old.id;
END;
