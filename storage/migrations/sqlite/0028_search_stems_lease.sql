-- Stems made once across instances (decision 030, "Stems"): a step leases the articles it takes
-- until this time, and the other instances' steps pass over them meanwhile. Null: not leased.
ALTER TABLE articles ADD COLUMN search_stems_lease_until TEXT;
