import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dayNumber, dayText } from '../../src/core/days.ts';

describe('SQLite day numbers', () => {
  it('counts days from 1970-01-01 UTC', () => {
    assert.equal(dayNumber('1970-01-01'), 0);
    assert.equal(dayNumber('1970-01-02'), 1);
    assert.equal(dayNumber('1969-12-31'), -1);
    assert.equal(dayNumber('2024-03-01') - dayNumber('2024-02-28'), 2, '2024 is a leap year');
    assert.equal(dayNumber('2023-03-01') - dayNumber('2023-02-28'), 1);
  });

  it('turns a day number back into the same day', () => {
    for (const day of ['0000-01-01', '0099-12-31', '1970-01-01', '2000-02-29', '2024-12-31', '9999-12-31']) {
      assert.equal(dayText(dayNumber(day)), day);
    }
  });

  it('refuses text that is not a calendar day as YYYY-MM-DD', () => {
    for (const day of ['2023-02-29', '2024-04-31', '2024-00-10', '2024-13-01', '2024-3-01', '24-03-01']) {
      assert.throws(() => dayNumber(day), RangeError, day);
    }
    for (const day of ['', ' 2024-03-01', '2024-03-01\n', '2024-03-01T00:00', '2024/03/01']) {
      assert.throws(() => dayNumber(day), RangeError, JSON.stringify(day));
    }
  });

  it('refuses a day number that is not whole or outside years 0000-9999', () => {
    for (const days of [0.5, Number.NaN, Number.POSITIVE_INFINITY, dayNumber('9999-12-31') + 1, -719_529]) {
      assert.throws(() => dayText(days), RangeError, String(days));
    }
  });
});
