/**
 * Raw events past the retention leave without a long-running DELETE (docs/adr/042), on both stores:
 * expired events go and recent ones stay, an insert at any `at` is taken, sweeps may overlap, and
 * SQLite's sweep lets click batches through between its slices. On PostgreSQL also: day partitions
 * are made ahead and dropped whole, and rows the DEFAULT partition took move into their day.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AHEAD_DAYS, dayPartitionName } from '../../../src/adapters/postgres/event-partitions.ts';
import { SQLITE_PURGE_SLICE } from '../../../src/adapters/sqlite/click-writer.ts';
import { utcToday } from '../../fixtures/utc-today.ts';
import { onBothStores, type StoreHarness } from './store-harness.ts';

const DAY = 86_400_000;
const TODAY = utcToday();
const CUT = TODAY - 90 * DAY;
const FAR_PAST = -5 * DAY;
const FAR_FUTURE = Date.UTC(2200, 0, 1);

const COLUMNS =
  'link_id, workspace_id, at, visitor, referrer, country, device, os, browser, language, source';

/** `count` events of workspace `workspace` at `at`, inserted as the flush would. */
async function events(h: StoreHarness, dialect: string, workspace: number, at: number, count = 1) {
  const values = "?, ?, ?, 1, 'direct', 'ZZ', 'desktop', 'Linux', 'Firefox', 'en', 'link'";
  if (dialect === 'PostgreSQL')
    await h.sql(
      `INSERT INTO click_events (${COLUMNS}) SELECT ${values} FROM generate_series(1, ?)`,
      workspace,
      workspace,
      at,
      count,
    );
  else
    await h.sql(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
        INSERT INTO click_events (${COLUMNS}) SELECT ${values} FROM n`,
      count,
      workspace,
      workspace,
      at,
    );
}

async function countAt(h: StoreHarness, from: number, to: number): Promise<number> {
  const [row] = await h.sql('SELECT COUNT(*) AS n FROM click_events WHERE at >= ? AND at < ?', from, to);
  return Number(row?.n);
}

const ALL: [number, number] = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

async function partitionsOf(h: StoreHarness): Promise<string[]> {
  const rows = await h.sql(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'click_events'::regclass ORDER BY 1`,
  );
  return rows.map((row) => String(row.name));
}

describe('raw event retention', () => {
  onBothStores('snip-retention-', (name, open) => {
    describe(name, () => {
      it('deletes the events before the cut, in slices across workspaces, and keeps the rest', async () => {
        const h = await open();
        try {
          // More expired events than a slice, over several workspaces, on days and in DEFAULT.
          await events(h, name, 1, CUT - 10 * DAY, SQLITE_PURGE_SLICE + 300);
          await events(h, name, 2, CUT - DAY + 5, 700);
          await events(h, name, 3, FAR_PAST, 40);
          await events(h, name, 3, CUT - 1, 3);
          await events(h, name, 1, CUT, 4);
          await events(h, name, 2, TODAY + 3_600_000, 5);
          await events(h, name, 3, FAR_FUTURE, 6);
          const expired = SQLITE_PURGE_SLICE + 300 + 700 + 40 + 3;
          assert.equal(await h.store.purgeEvents(CUT, TODAY), expired);
          assert.equal(await countAt(h, ...ALL), 15);
          assert.equal(await countAt(h, CUT, CUT + 1), 4);
          assert.equal(await countAt(h, FAR_FUTURE, FAR_FUTURE + 1), 6);
          assert.equal(await h.store.purgeEvents(CUT, TODAY), 0);
        } finally {
          await h.close();
        }
      });

      it('takes an insert at any time, and sweeps that overlap all finish and delete each event once', async () => {
        const h = await open();
        try {
          for (const at of [0, FAR_PAST, FAR_FUTURE, Number.MAX_SAFE_INTEGER - 1, TODAY + 40 * DAY])
            await events(h, name, 4, at, 2);
          for (let d = 1; d <= 20; d++) await events(h, name, d, CUT - d * DAY, 50);
          const sweeps = await Promise.all([1, 2, 3].map(() => h.store.purgeEvents(CUT, TODAY)));
          assert.equal(
            sweeps.reduce((a, b) => a + b, 0),
            20 * 50 + 4,
          );
          assert.equal(await countAt(h, ...ALL), 6);
        } finally {
          await h.close();
        }
      });

      it('refuses a cut or a clock that is not a time in epoch ms', async () => {
        const h = await open();
        try {
          await assert.rejects(h.store.purgeEvents(Number.NaN), RangeError);
          await assert.rejects(h.store.purgeEvents(CUT, 1.5), RangeError);
        } finally {
          await h.close();
        }
      });

      if (name === 'SQLite')
        it('writes a click batch posted during a purge before the purge ends', async () => {
          const h = await open();
          try {
            await events(h, name, 1, CUT - DAY, 10 * SQLITE_PURGE_SLICE);
            const order: string[] = [];
            const purge = h.store.purgeEvents(CUT).then(() => order.push('purge'));
            const batch = h.store
              .addClicks([{ linkId: 1e9, day: '2026-01-01', clicks: 1, botHits: 0 }])
              .then(() => order.push('batch'));
            await Promise.all([purge, batch]);
            assert.deepEqual(order, ['batch', 'purge']);
            assert.equal(await countAt(h, ...ALL), 0);
          } finally {
            await h.close();
          }
        });

      if (name === 'PostgreSQL')
        it('makes day partitions ahead, drops expired ones whole and moves what DEFAULT held into its day', async () => {
          const h = await open();
          try {
            const later = TODAY + 30 * DAY;
            // Stamped ahead of every partition: DEFAULT takes them, until their day is made.
            await events(h, name, 5, later + 3 * DAY + 7, 9);
            await events(h, name, 5, TODAY + 5, 2);
            assert.equal(await h.store.purgeEvents(CUT, TODAY), 0);
            const made = await partitionsOf(h);
            for (let d = 0; d <= AHEAD_DAYS; d++) assert.ok(made.includes(dayPartitionName(TODAY + d * DAY)));
            assert.ok(made.includes('click_events_default'));
            // A month on, with a cut past today: today's partition goes whole, the new days come.
            assert.equal(await h.store.purgeEvents(TODAY + 2 * DAY, later), 2);
            const now = await partitionsOf(h);
            assert.ok(!now.includes(dayPartitionName(TODAY)));
            assert.ok(now.includes(dayPartitionName(TODAY + 2 * DAY)));
            for (let d = 0; d <= AHEAD_DAYS; d++) assert.ok(now.includes(dayPartitionName(later + d * DAY)));
            const [moved] = await h.sql(`SELECT COUNT(*) AS n FROM "${dayPartitionName(later + 3 * DAY)}"`);
            assert.equal(Number(moved?.n), 9);
            const [left] = await h.sql('SELECT COUNT(*) AS n FROM click_events_default');
            assert.equal(Number(left?.n), 0);
          } finally {
            await h.close();
          }
        });
    });
  });
});
