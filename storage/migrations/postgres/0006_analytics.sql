-- First-party analytics (PostgreSQL): one row per screen view, rolled up into daily totals after
-- the retention period. Nothing here identifies a reader: `visitor` is a hash made with a salt
-- of the day that is deleted once the day is over, and no address or user agent is stored.

CREATE TABLE analytics_events (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- When the view was received: epoch milliseconds, and its UTC day (yyyy-mm-dd).
  at_ms BIGINT NOT NULL,
  day TEXT NOT NULL,
  visitor TEXT NOT NULL,
  screen TEXT NOT NULL,
  path TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  -- The page the reader came from within the site; '' on arrival.
  previous_path TEXT NOT NULL DEFAULT '',
  -- The other site a reader arrived from (host only); '' for none.
  referrer_host TEXT NOT NULL DEFAULT '',
  utm_source TEXT NOT NULL DEFAULT '',
  utm_medium TEXT NOT NULL DEFAULT '',
  utm_campaign TEXT NOT NULL DEFAULT '',
  device TEXT NOT NULL,
  language TEXT NOT NULL DEFAULT ''
);
CREATE INDEX analytics_events_day ON analytics_events (day);
CREATE INDEX analytics_events_visitor ON analytics_events (visitor, at_ms);
CREATE INDEX analytics_events_at ON analytics_events (at_ms);

-- Daily totals of days whose raw events are gone. One row per day, dimension and value:
-- dimension 'total' (value ''), 'page', 'article', 'entry', 'exit', 'referrer', 'campaign',
-- 'device', 'language'. value2 and value3 carry a second and third part where a dimension has
-- them (an article's title; a campaign's source and medium).
CREATE TABLE analytics_daily (
  day TEXT NOT NULL,
  dimension TEXT NOT NULL,
  value TEXT NOT NULL,
  value2 TEXT NOT NULL DEFAULT '',
  value3 TEXT NOT NULL DEFAULT '',
  visitors INTEGER NOT NULL,
  views INTEGER NOT NULL,
  visits INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, dimension, value, value2, value3)
);
