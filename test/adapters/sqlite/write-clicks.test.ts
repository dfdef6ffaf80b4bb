import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Worker } from 'node:worker_threads';
import type { CheckedBatch } from '../../../src/adapters/sql/flush-batch.ts';
import { threadClickWriter } from '../../../src/adapters/sqlite/click-writer.ts';
import { type Connection, openConnection } from '../../../src/adapters/sqlite/connection.ts';
import { threadReaders } from '../../../src/adapters/sqlite/readers.ts';
import { openSqliteStore } from '../../../src/adapters/sqlite/store.ts';
import { writeClicks } from '../../../src/adapters/sqlite/write-clicks.ts';
import { EventTable } from '../../../src/core/analytics/event-table.ts';
import type { ClickEvent } from '../../../src/core/analytics/model.ts';
import { dayNumber } from '../../../src/core/days.ts';
import { clickEvent } from '../../fixtures/click-event.ts';
import { copyMigratedDatabase } from '../../fixtures/template-db.ts';
import { givenAccount, newLink, planInput } from '../contract/store-contract.ts';

const DAY = '2026-11-28';
const AT = Date.parse(`${DAY}T10:00:00Z`);

/** A flush as the writer's thread receives it (checked already): `events` as they are, unchecked. */
function batchOf(linkId: number, events: ClickEvent[]): CheckedBatch {
  const table = new EventTable();
  for (const event of events) table.push(event);
  return {
    counts: [{ linkId, day: dayNumber(DAY), clicks: events.length, botHits: 0 }],
    events: table,
    visitors: [],
    bots: [],
    notices: undefined,
    at: AT + 60_000,
  };
}

describe('a flush written on SQLite (statements OR ROLLBACK), and its threads', () => {
  let dir: string;
  let conn: Connection;
  let link: { id: number; workspaceId: number };
  const count = (sql: string) => Number((conn.db.prepare(sql).get(link.id) as { n: number }).n);
  const clicks = () => count('SELECT clicks AS n FROM links WHERE id = ?');
  const rows = () =>
    count(`SELECT (SELECT count(*) FROM click_events WHERE link_id = ?1)
      + (SELECT count(*) FROM link_daily_clicks WHERE link_id = ?1)
      + (SELECT count(*) FROM link_daily_stats WHERE link_id = ?1)
      + (SELECT count(*) FROM link_hourly_clicks WHERE link_id = ?1)
      + (SELECT count(*) FROM link_hourly_stats WHERE link_id = ?1) AS n`);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'snip-write-clicks-'));
    const path = join(dir, 'snip.db');
    await copyMigratedDatabase(path);
    const store = openSqliteStore(path);
    await store.migrate();
    const plan = await store.upsertPlan(planInput());
    const workspace = await givenAccount(store, 'writer@example.com', plan);
    const created = await store.insertLinkWithinQuota(newLink(workspace.id, 'https://example.com/a'));
    assert.equal(created.kind, 'created');
    if (created.kind !== 'created') return;
    link = { id: created.link.id, workspaceId: workspace.id };
    await store.close();
    conn = openConnection(path);
  });
  after(() => {
    conn?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const click = (i: number) => clickEvent(link, AT + i, i.toString(16).padStart(16, '0'));

  it('leaves nothing of a flush whose statement breaks a constraint, and writes the next one', () => {
    // 70 events: a full 64-row insert goes in before the last one breaks NOT NULL; the counters
    // and the rollup rows were written before both.
    const broken = Array.from({ length: 70 }, (_, i) => click(i));
    broken[69] = { ...click(69), referrer: null as unknown as string };
    assert.throws(
      () => writeClicks(conn, batchOf(link.id, broken)),
      (error: { errcode?: number }) => (error.errcode ?? 0) % 256 === 19, // SQLITE_CONSTRAINT
    );
    assert.equal(conn.db.isTransaction, false);
    assert.equal(clicks(), 0);
    assert.equal(rows(), 0);

    writeClicks(
      conn,
      batchOf(
        link.id,
        Array.from({ length: 70 }, (_, i) => click(i)),
      ),
    );
    assert.equal(clicks(), 70);
    assert.equal(count('SELECT count(*) AS n FROM click_events WHERE link_id = ?'), 70);
    assert.equal(count('SELECT clicks AS n FROM link_daily_clicks WHERE link_id = ?'), 70);
  });

  it("replaces a writer's thread that stopped with the next batch, and refuses batches once closed", async () => {
    const threads: Worker[] = [];
    const writer = threadClickWriter(conn.db.location() as string, undefined, (worker) =>
      threads.push(worker),
    );
    const before = clicks();
    await writer.write(batchOf(link.id, [click(100)]));
    await threads[0]?.terminate();
    await writer.write(batchOf(link.id, [click(101), click(102)]));
    assert.equal(threads.length, 2);
    assert.equal(clicks(), before + 3);
    await writer.close();
    await assert.rejects(writer.write(batchOf(link.id, [click(103)])));
    assert.equal(clicks(), before + 3);
  });

  it('replaces a reader thread that stopped with the next read', async () => {
    const threads: Worker[] = [];
    const readers = threadReaders(conn.db.location() as string, 1, (worker) => threads.push(worker));
    const perGroup = () => readers.countLinksPerGroup(link.workspaceId);
    await perGroup();
    await threads[0]?.terminate();
    assert.ok((await perGroup()) instanceof Map);
    assert.equal(threads.length, 2);
    await readers.close();
    await assert.rejects(perGroup());
  });
});

describe('how many links a flush of the SQLite store carries per transaction', () => {
  it("asks for 4,096 when the writer's thread writes, and leaves the default when writing in place", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'snip-write-bound-'));
    const threaded = openSqliteStore(join(dir, 'threaded.db'));
    const command = openSqliteStore(join(dir, 'command.db'), { threads: false });
    const memory = openSqliteStore(':memory:');
    try {
      assert.equal(threaded.clickLinksPerWrite, 4096);
      assert.equal(command.clickLinksPerWrite, undefined);
      assert.equal(memory.clickLinksPerWrite, undefined);
    } finally {
      for (const store of [threaded, command, memory]) await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
