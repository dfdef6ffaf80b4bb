import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkedBatch } from '../../../src/adapters/sql/flush-batch.ts';
import { dailyWrites, type StatRow } from '../../../src/adapters/sql/flush-rows.ts';
import { compareStatRows } from '../../../src/adapters/sql/flush-tally.ts';
import { EventTable } from '../../../src/core/analytics/event-table.ts';
import type { ClickEvent } from '../../../src/core/analytics/model.ts';
import { dayNumber, HOUR_MS } from '../../../src/core/days.ts';
import { clickEvent } from '../../fixtures/click-event.ts';

const DAY = '2026-11-28';
const at = (hour: number) => Date.parse(`${DAY}T00:00:00Z`) + hour * HOUR_MS + 1_000;
const hourOf = (hour: number) => Math.floor(at(hour) / HOUR_MS);
const day = dayNumber(DAY);

/** A click of a link of workspace 99 (the flush takes the account from `accountOf`), from Germany. */
const event = (linkId: number, hour: number, more: Partial<ClickEvent> = {}): ClickEvent =>
  clickEvent({ id: linkId, workspaceId: 99 }, at(hour), '0123456789abcdef', { country: 'DE', ...more });

/** Links 1 and 2 of workspace 10, link 3 of workspace 20; link 4 is unknown. */
const accountOf = new Map([
  [1, 10],
  [2, 10],
  [3, 20],
]);

function writesOf(events: ClickEvent[], bots: Array<{ linkId: number; kind: string; hits: number }> = []) {
  const table = new EventTable();
  for (const one of events) table.push(one);
  return dailyWrites(
    checkedBatch([], { events: table, visitors: [], bots: bots.map((bot) => ({ ...bot, day: DAY })) }),
    accountOf,
  );
}

const rowsOf = (rows: StatRow[], id: number, bucket: number) =>
  rows.filter((row) => row[0] === id && row[1] === bucket).map((row) => [row[2], row[3], row[4]]);

describe('a flush summed into rows', () => {
  it('counts each link hour by dimension and value, its day as the sum of its hours', () => {
    const writes = writesOf([
      event(2, 9, { country: 'FR' }),
      event(1, 14, { referrer: 'b.example' }),
      event(1, 9, { referrer: 'a.example', variant: 'B' }),
      event(1, 9, { referrer: 'b.example' }),
      event(4, 9),
    ]);
    assert.deepEqual(rowsOf(writes.hourly.linkStats, 1, hourOf(9)), [
      ['browser', 'Chrome', 2],
      ['country', 'DE', 2],
      ['device', 'desktop', 2],
      ['language', 'en', 2],
      ['os', 'Windows', 2],
      ['referrer', 'a.example', 1],
      ['referrer', 'b.example', 1],
      ['source', 'link', 2],
      ['variant', 'B', 1],
    ]);
    assert.deepEqual(rowsOf(writes.linkStats, 1, day), [
      ['browser', 'Chrome', 3],
      ['country', 'DE', 3],
      ['device', 'desktop', 3],
      ['language', 'en', 3],
      ['os', 'Windows', 3],
      ['referrer', 'a.example', 1],
      ['referrer', 'b.example', 2],
      ['source', 'link', 3],
      ['variant', 'B', 1],
    ]);
    assert.deepEqual(writes.hourly.linkHours, [
      [1, hourOf(9), 2, 0],
      [1, hourOf(14), 1, 0],
      [2, hourOf(9), 1, 0],
    ]);
    // The unknown link's event is neither counted nor kept.
    assert.deepEqual(writes.events.rows, [0, 1, 2, 3]);
    assert.deepEqual(writes.events.accounts, [10, 10, 10, 10]);
  });

  it('sums a workspace from its links, hour by hour and day by day', () => {
    const writes = writesOf([event(1, 9), event(2, 9, { country: 'FR' }), event(3, 9), event(2, 10)]);
    assert.deepEqual(writes.hourly.workspaceHours, [
      [10, hourOf(9), 2, 0],
      [10, hourOf(10), 1, 0],
      [20, hourOf(9), 1, 0],
    ]);
    assert.deepEqual(
      rowsOf(writes.workspaceStats, 10, day).filter(([dimension]) => dimension === 'country'),
      [
        ['country', 'DE', 2],
        ['country', 'FR', 1],
      ],
    );
    assert.deepEqual(rowsOf(writes.hourly.workspaceStats, 20, hourOf(9)).length, 7);
  });

  it('adds bot hits to the days of both scopes, among the dimensions in name order', () => {
    const writes = writesOf(
      [event(1, 9)],
      [
        { linkId: 1, kind: 'Slackbot', hits: 2 },
        { linkId: 1, kind: 'Slackbot', hits: 1 },
        { linkId: 2, kind: 'Discordbot', hits: 1 },
        { linkId: 4, kind: 'Slackbot', hits: 5 },
      ],
    );
    assert.deepEqual(rowsOf(writes.linkStats, 1, day).slice(0, 2), [
      ['bot', 'Slackbot', 3],
      ['browser', 'Chrome', 1],
    ]);
    assert.deepEqual(rowsOf(writes.linkStats, 2, day), [['bot', 'Discordbot', 1]]);
    assert.deepEqual(
      rowsOf(writes.workspaceStats, 10, day).filter(([dimension]) => dimension === 'bot'),
      [
        ['bot', 'Discordbot', 1],
        ['bot', 'Slackbot', 3],
      ],
    );
    assert.equal(rowsOf(writes.hourly.linkStats, 1, hourOf(9)).filter(([d]) => d === 'bot').length, 0);
  });

  it('lists every part in key order, each key once', () => {
    const events: ClickEvent[] = [];
    for (let i = 0; i < 500; i++) {
      events.push(
        event(1 + (i % 3), (i * 7) % 24, {
          referrer: ['direct', 'a.example', 'Z.example', 'é.example'][i % 4] as string,
          variant: i % 5 === 0 ? 'A' : '',
        }),
      );
    }
    const writes = writesOf(events, [{ linkId: 3, kind: 'Twitterbot', hits: 1 }]);
    for (const rows of [
      writes.linkStats,
      writes.workspaceStats,
      writes.hourly.linkStats,
      writes.hourly.workspaceStats,
    ]) {
      for (let i = 1; i < rows.length; i++)
        assert.ok(compareStatRows(rows[i - 1] as StatRow, rows[i] as StatRow) < 0);
    }
    const clicks = (rows: StatRow[]) =>
      rows.filter(([, , dimension]) => dimension === 'country').reduce((sum, row) => sum + row[4], 0);
    assert.equal(clicks(writes.linkStats), 500);
    assert.equal(clicks(writes.hourly.linkStats), 500);
    assert.equal(clicks(writes.workspaceStats), 500);
  });
});
