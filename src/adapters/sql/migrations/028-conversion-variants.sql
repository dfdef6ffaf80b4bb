-- Conversions per A/B test variant (docs/api.md §20, docs/adr/045): beside conversion_daily, the
-- figures of a lead or sale whose click went to a variant ('1' to '4'), per link, variant, UTC day
-- and currency, the leads on the row of currency ''. A sale takes the variant of the lead it is
-- attributed to, else of its click id. Kept as long as the link, like conversion_daily.
CREATE TABLE conversion_variant_daily (
  link_id BIGINT NOT NULL,
  variant TEXT NOT NULL,
  day TEXT NOT NULL,
  currency TEXT NOT NULL,
  leads BIGINT NOT NULL DEFAULT 0,
  sales BIGINT NOT NULL DEFAULT 0,
  revenue BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (link_id, variant, day, currency)
);
-- The leads kept so far carry their variant: their figures are filled from them. Sales recorded
-- before this migration name no variant and are not split (the ADR says so).
-- dialect: sqlite
INSERT INTO conversion_variant_daily (link_id, variant, day, currency, leads)
  SELECT link_id, variant, strftime('%Y-%m-%d', at / 1000, 'unixepoch'), '', COUNT(*)
  FROM conversion_leads WHERE variant IS NOT NULL
  GROUP BY link_id, variant, strftime('%Y-%m-%d', at / 1000, 'unixepoch');
-- dialect: postgres
INSERT INTO conversion_variant_daily (link_id, variant, day, currency, leads)
  SELECT link_id, variant, to_char(to_timestamp(at / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD'), '', COUNT(*)
  FROM conversion_leads WHERE variant IS NOT NULL
  GROUP BY link_id, variant, to_char(to_timestamp(at / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD');
