/**
 * Migration 023 on a store holding raw events: every row is kept as it was (counts and values
 * equal), the indexes the queries read are there by their names, and the store reads and sweeps the
 * migrated table. On PostgreSQL click_events is then partitioned by day, with DEFAULT taking the
 * rows of days far from today. On SQLite always, on PostgreSQL when TEST_DATABASE_URL is set.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dayPartitionName } from '../../../src/adapters/postgres/event-partitions.ts';
import { type Dialect, loadMigrations } from '../../../src/adapters/sql/migrations.ts';
import { type OldDatabase, oldPostgres, oldSqlite, type Row } from '../../fixtures/old-database.ts';
import { utcToday } from '../../fixtures/utc-today.ts';

const DAY = 86_400_000;
const TODAY = utcToday();
const COLUMNS =
  'link_id, workspace_id, at, visitor, referrer, country, device, os, browser, language, source';
/** Times of the held events: recent days, a day beyond the week ahead, the far past and future. */
const TIMES = [
  TODAY - 89 * DAY + 1,
  TODAY - 3 * DAY,
  TODAY - 1,
  TODAY,
  TODAY + 20 * DAY,
  5,
  Date.UTC(2300, 0, 1),
];

/** The newest migration before 023, whichever it is. */
async function lastBefore023(dialect: Dialect): Promise<string> {
  const names = (await loadMigrations(dialect)).map((m) => m.name).filter((n) => n < '023');
  return names.at(-1) as string;
}

function describeMigration(name: string, make: () => Promise<OldDatabase>) {
  describe(name, () => {
    let old: OldDatabase;
    let held: Row[];
    const rows = () => old.run(`SELECT ${COLUMNS} FROM click_events ORDER BY at, link_id, visitor, referrer`);
    before(async () => {
      old = await make();
      let n = 0;
      for (const at of TIMES)
        for (let k = 0; k < 3; k++, n++)
          await old.run(
            `INSERT INTO click_events (${COLUMNS}) VALUES (?, ?, ?, ?, ?, 'DE', 'mobile', 'iOS', 'Safari', 'de', 'qr')`,
            100 + k,
            7,
            at,
            n,
            `ref-${n}.example`,
          );
      held = await rows();
      const store = old.open();
      try {
        await store.migrate();
      } finally {
        await store.close();
      }
    });
    after(() => old.remove());

    it('keeps every event as it was', async () => {
      assert.equal(held.length, TIMES.length * 3);
      assert.deepEqual(await rows(), held);
    });

    it('keeps the indexes the queries read, by their names', async () => {
      const indexes =
        old.dialect === 'postgres'
          ? await old.run("SELECT indexname AS name FROM pg_indexes WHERE tablename = 'click_events'")
          : await old.run(
              "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'click_events'",
            );
      const names = indexes.map((row) => String(row.name));
      for (const index of ['click_events_link_at', 'click_events_account_at'])
        assert.ok(names.includes(index), index);
    });

    if (name === 'PostgreSQL')
      it('partitions click_events by day, with a DEFAULT for the days far from today', async () => {
        const [table] = await old.run("SELECT relkind FROM pg_class WHERE oid = 'click_events'::regclass");
        assert.equal(table?.relkind, 'p');
        const [inDefault] = await old.run('SELECT COUNT(*) AS n FROM click_events_default');
        // Day 0 (more than ten years back) and 2300 (more than a year ahead).
        assert.equal(Number(inDefault?.n), 6);
        const [ahead] = await old.run(`SELECT COUNT(*) AS n FROM "${dayPartitionName(TODAY + 20 * DAY)}"`);
        assert.equal(Number(ahead?.n), 3);
      });

    it('is swept by the store: the expired events go, the rest stay', async () => {
      const store = old.open();
      try {
        assert.equal(await store.purgeEvents(TODAY - 90 * DAY, TODAY), 3);
        assert.equal(await store.purgeEvents(TODAY - 2 * DAY, TODAY), 6);
        assert.equal((await rows()).length, TIMES.length * 3 - 9);
      } finally {
        await store.close();
      }
    });
  });
}

describe('migration 023: raw events by day', () => {
  describeMigration('SQLite', async () => oldSqlite('023', await lastBefore023('sqlite')));
  const databaseUrl = process.env.TEST_DATABASE_URL;
  describe('on PostgreSQL', { skip: databaseUrl ? false : 'TEST_DATABASE_URL is not set' }, () => {
    describeMigration('PostgreSQL', async () =>
      oldPostgres(databaseUrl as string, '023', await lastBefore023('postgres')),
    );
  });
});
