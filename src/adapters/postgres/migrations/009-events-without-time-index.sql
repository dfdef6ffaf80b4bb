-- SQLite drops its B-tree on click_events (at) here (docs/adr/022). PostgreSQL keeps its BRIN index
-- on at: a few pages for the whole table, next to nothing per inserted event.
SELECT 1;
