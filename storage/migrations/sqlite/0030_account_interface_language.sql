-- The staff area's language an account chose on its own page (decision 033, "The staff area's
-- language"): an interface language code, or '' to take the browser's among the site's
-- languages, as readers do. Read with the session (better-auth's additionalFields).
ALTER TABLE "user" ADD COLUMN "interfaceLanguage" TEXT NOT NULL DEFAULT '';
