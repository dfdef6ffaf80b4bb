import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DayCount } from '../../../src/core/ports/console-store.ts';
import { dayCounts } from '../../../src/features/admin/day-counts.ts';

describe('day counts', () => {
  it('reads the past days once a day and today on every call', async () => {
    const asked: number[] = [];
    const stored: DayCount[] = [
      { day: 8, count: 2 },
      { day: 10, count: 1 },
    ];
    const counts = dayCounts(async (fromDay) => {
      asked.push(fromDay);
      return stored.filter(({ day }) => day >= fromDay);
    });
    assert.deepEqual(await counts(1, 10), stored);
    stored[1] = { day: 10, count: 5 };
    assert.deepEqual(await counts(1, 10), [
      { day: 8, count: 2 },
      { day: 10, count: 5 },
    ]);
    stored.push({ day: 11, count: 1 });
    assert.deepEqual(await counts(2, 11), stored);
    assert.deepEqual(asked, [1, 10, 2]);
  });
});
