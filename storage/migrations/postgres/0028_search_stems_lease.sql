-- Stems made once across instances (decision 030, "Stems"): a step leases the articles it takes
-- until this time, and the other instances' steps pass over them meanwhile (FOR UPDATE SKIP
-- LOCKED while it takes them). Null: not leased.
ALTER TABLE articles ADD COLUMN search_stems_lease_until TIMESTAMPTZ;
