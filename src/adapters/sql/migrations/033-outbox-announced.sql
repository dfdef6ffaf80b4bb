-- Every instance hears that deliveries were written (docs/adr/051): on PostgreSQL each statement
-- that adds deliveries (a change's event, a flush's clicks, a resend, a test event) notifies the
-- channel `snip_outbox` when its transaction commits, once per transaction, and every server
-- listening looks at the outbox then, rather than polling it. SQLite has one server per file, which
-- wakes itself; a command's events wait for its next look.
-- dialect: postgres
CREATE FUNCTION snip_outbox_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('snip_outbox', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER webhook_deliveries_written AFTER INSERT ON webhook_deliveries
  FOR EACH STATEMENT EXECUTE FUNCTION snip_outbox_written();
