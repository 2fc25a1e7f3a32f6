-- Images stored before this migration kept the metadata they were uploaded with (a camera's EXIF
-- with its GPS position, XMP, PNG text). Every image stored after it is made again without any
-- (app/features/uploads/clean-image.server.ts). The upload-cleaning job does the same for the
-- ones before, from the oldest: it cleans the uploads with ids from 'uploads.cleaning.next' up to
-- (not including) 'uploads.cleaning.before', moving 'next' on as it goes. A database with no images
-- gets neither setting, and the job has nothing to do. See docs/decisions/021-hostile-input.md.
INSERT INTO settings (key, value, updated_at)
SELECT 'uploads.cleaning.before', ((SELECT MAX(id) FROM uploads) + 1)::text, now()
WHERE EXISTS (SELECT 1 FROM uploads);
INSERT INTO settings (key, value, updated_at)
SELECT 'uploads.cleaning.next', '1', now()
WHERE EXISTS (SELECT 1 FROM uploads);
