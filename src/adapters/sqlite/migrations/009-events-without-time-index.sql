-- The retention sweep no longer needs an index on click_events (at) (docs/adr/022): it deletes
-- account by account along click_events_account_at. One index fewer to write per click event.
DROP INDEX IF EXISTS click_events_at;
