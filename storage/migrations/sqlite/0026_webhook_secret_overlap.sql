-- A webhook secret made anew keeps the one before it signing beside it for a while (both
-- signatures in webhook-signature), so a receiver can change over without refusing an event.
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret TEXT;
ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_until TEXT;
