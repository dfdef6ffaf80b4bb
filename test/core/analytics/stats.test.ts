import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DIMENSIONS, type StatsRange, type StoredStats } from '../../../src/core/analytics/model.ts';
import {
  type ParsedRange,
  parseStatsRange,
  type StatsQueryInput,
  statsAnswer,
  topRows,
} from '../../../src/core/analytics/stats.ts';

/** Which range a stats query asks for, and the answer shaped from the store's numbers (docs/api.md §9.4). */

const HOUR = 3_600_000;
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 24, 15, 30, 12);
const TODAY = Date.UTC(2026, 10, 24);
const options = { now: NOW, retentionDays: 90 };

function range(query: StatsQueryInput, retentionDays = 90): StatsRange {
  const parsed = parseStatsRange(query, { now: NOW, retentionDays });
  assert.equal(parsed.kind, 'ok', JSON.stringify(parsed));
  return (parsed as Extract<ParsedRange, { kind: 'ok' }>).range;
}

function refusedField(query: StatsQueryInput, retentionDays = 90): string {
  const parsed = parseStatsRange(query, { now: NOW, retentionDays });
  assert.equal(parsed.kind, 'invalid', `${JSON.stringify(query)} was taken`);
  const refusal = parsed as Extract<ParsedRange, { kind: 'invalid' }>;
  assert.ok(refusal.reason.length > 0);
  return refusal.field;
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('parseStatsRange', () => {
  it('defaults to the last 30 UTC days, today included, daily', () => {
    assert.deepEqual(range({}), { from: TODAY - 29 * DAY, to: TODAY + DAY, interval: 'day' });
  });

  it('takes a day as `to` inclusively and a day as `from` from its start', () => {
    const r = range({ from: '2026-11-01', to: '2026-11-03' });
    assert.equal(iso(r.from), '2026-11-01T00:00:00.000Z');
    assert.equal(iso(r.to), '2026-11-04T00:00:00.000Z');
    assert.equal((r.to - r.from) / DAY, 3);
    const one = range({ from: '2026-11-03', to: '2026-11-03' });
    assert.equal(one.to - one.from, DAY, 'one day from and to the same day');
  });

  it('rounds a date-time `from` down and `to` up to whole buckets', () => {
    const daily = range({ from: '2026-11-01T10:20:00Z', to: '2026-11-03T00:00:01Z' });
    assert.equal(iso(daily.from), '2026-11-01T00:00:00.000Z');
    assert.equal(iso(daily.to), '2026-11-04T00:00:00.000Z');
    const exact = range({ from: '2026-11-01T00:00:00Z', to: '2026-11-03T00:00:00Z' });
    assert.equal(iso(exact.to), '2026-11-03T00:00:00.000Z', 'a to on a bucket edge stays');
    const hourly = range({
      from: '2026-11-20T10:59:59.999Z',
      to: '2026-11-20T12:00:01+00:00',
      interval: 'hour',
    });
    assert.equal(iso(hourly.from), '2026-11-20T10:00:00.000Z');
    assert.equal(iso(hourly.to), '2026-11-20T13:00:00.000Z');
  });

  it('reads offsets and lower-case separators as RFC 3339 allows', () => {
    const r = range({ from: '2026-11-20t01:30:00+02:00', to: '2026-11-20 05:00:00z', interval: 'hour' });
    assert.equal(iso(r.from), '2026-11-19T23:00:00.000Z');
    assert.equal(iso(r.to), '2026-11-20T05:00:00.000Z');
  });

  it('keeps the default length when only `to` is given, rounded first', () => {
    const r = range({ to: '2026-06-10T05:00:00Z' });
    assert.equal(iso(r.to), '2026-06-11T00:00:00.000Z');
    assert.equal((r.to - r.from) / DAY, 30);
  });

  it('takes 29 February of a leap year and refuses it in other years', () => {
    const leap = range({ from: '2024-02-29', to: '2024-02-29' });
    assert.equal(iso(leap.from), '2024-02-29T00:00:00.000Z');
    assert.equal(refusedField({ from: '2023-02-29' }), 'from');
    assert.equal(refusedField({ to: '2023-02-29' }), 'to');
    assert.equal(refusedField({ from: '2026-02-29T10:00:00Z' }), 'from', 'a date-time on no calendar day');
    assert.equal(refusedField({ to: '2026-04-31T00:00:00Z' }), 'to');
  });

  it('spans at most 366 days: a whole leap year passes, one day more is refused', () => {
    const year = range({ from: '2024-01-01', to: '2024-12-31' });
    assert.equal((year.to - year.from) / DAY, 366);
    assert.equal(refusedField({ from: '2024-01-01', to: '2025-01-01' }), 'to');
    assert.equal(refusedField({ from: '2000-01-01', to: '2026-01-01' }), 'to');
  });

  it('refuses `from` after `to`, and an empty range', () => {
    assert.equal(refusedField({ from: '2026-11-05', to: '2026-11-04' }), 'from');
    assert.equal(refusedField({ from: '2026-12-01' }), 'from', 'after the default to (tomorrow)');
    assert.equal(
      refusedField({ from: '2026-11-05T10:00:00Z', to: '2026-11-05T10:00:00Z', interval: 'hour' }),
      'from',
    );
  });

  it('answers hours only within the retention, days always', () => {
    const edge = TODAY - 90 * DAY;
    const oldest = range({ from: iso(edge), to: iso(edge + 2 * HOUR), interval: 'hour' });
    assert.equal(oldest.from, edge);
    assert.equal(
      refusedField({ from: iso(edge - HOUR), to: iso(edge + HOUR), interval: 'hour' }),
      'interval',
    );
    assert.equal(refusedField({ interval: 'hour' }, 7), 'interval', 'the default 30 days, 7 kept');
    const daily = range({ from: '2025-12-01', to: '2026-01-01' }, 7);
    assert.equal(daily.interval, 'day');
    const hourly = range({ interval: 'hour' });
    assert.equal((hourly.to - hourly.from) / HOUR, 30 * 24);
  });

  it('refuses an unknown interval', () => {
    for (const interval of ['week', 'HOUR', '', 'day ', ['day'], 1, null]) {
      assert.equal(refusedField({ interval }), 'interval', JSON.stringify(interval));
    }
  });

  it('refuses what is not a day nor an RFC 3339 date-time, without throwing', () => {
    const garbage: unknown[] = [
      '',
      'yesterday',
      '2026-11-5',
      '2026/11/05',
      '20261105',
      '2026-11-05T10:00Z',
      '2026-11-05T10:00:00',
      '2026-11-05T24:00:00Z',
      '2026-11-05T23:60:00Z',
      '2026-11-05T10:00:00+25:00',
      '2026-13-01',
      '1969-12-31',
      '9999-12-31T23:59:59Z',
      '+275760-09-13',
      '2026-11-05\n',
      `2026-11-05${'0'.repeat(10_000)}`,
      '1'.repeat(400),
      ['2026-11-01', '2026-11-02'],
      1_700_000_000_000,
      { day: '2026-11-01' },
      null,
    ];
    for (const value of garbage) {
      assert.equal(refusedField({ from: value }), 'from', JSON.stringify(value)?.slice(0, 40));
      assert.equal(refusedField({ to: value }), 'to', JSON.stringify(value)?.slice(0, 40));
    }
  });

  it('does not depend on the options object being reused', () => {
    assert.deepEqual(parseStatsRange({}, options), parseStatsRange({}, { ...options }));
  });
});

const emptyBreakdowns = () =>
  Object.fromEntries(DIMENSIONS.map((dimension) => [dimension, []])) as unknown as StoredStats['breakdowns'];

describe('topRows', () => {
  it('sorts by clicks, then value', () => {
    assert.deepEqual(
      topRows([
        { value: 'b', clicks: 2 },
        { value: 'c', clicks: 5 },
        { value: 'a', clicks: 2 },
      ]),
      [
        { value: 'c', clicks: 5 },
        { value: 'a', clicks: 2 },
        { value: 'b', clicks: 2 },
      ],
    );
  });

  it('lists 50 rows and sums the rest into `other`; no `other` row without a rest', () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({ value: `host${i}.example`, clicks: 100 - i }));
    const top = topRows(rows);
    assert.equal(top.length, 51);
    assert.deepEqual(top[0], { value: 'host0.example', clicks: 100 });
    assert.deepEqual(top[49], { value: 'host49.example', clicks: 51 });
    assert.deepEqual(top[50], { value: 'other', clicks: 50 + 49 + 48 + 47 + 46 + 45 + 44 + 43 + 42 + 41 });
    assert.equal(topRows(rows.slice(0, 50)).length, 50);
    assert.equal(topRows(rows, 10).length, 11);
  });

  it('folds a value named `other` into the rest, so no value is listed twice', () => {
    const rows = [
      { value: 'other', clicks: 10 },
      { value: 'a', clicks: 9 },
      { value: 'b', clicks: 8 },
      { value: 'c', clicks: 1 },
    ];
    assert.deepEqual(topRows(rows, 2), [
      { value: 'a', clicks: 9 },
      { value: 'b', clicks: 8 },
      { value: 'other', clicks: 11 },
    ]);
    assert.deepEqual(topRows(rows, 4)[0], { value: 'other', clicks: 10 }, 'a real value when all fit');
  });
});

describe('statsAnswer', () => {
  it('lists every bucket of the range, empty ones as 0, with the totals and every breakdown', () => {
    const r: StatsRange = { from: Date.UTC(2026, 10, 1), to: Date.UTC(2026, 10, 4), interval: 'day' };
    const breakdowns = emptyBreakdowns();
    breakdowns.referrer = [
      { value: 'direct', clicks: 1 },
      { value: 'example.org', clicks: 4 },
    ];
    const answer = statsAnswer(
      {
        totals: { clicks: 5, uniqueVisitors: 3, botHits: 2, qrScans: 1 },
        series: [{ t: Date.UTC(2026, 10, 2), clicks: 5, uniqueVisitors: 3 }],
        breakdowns,
        urls: [],
      },
      r,
    );
    assert.equal(answer.from, '2026-11-01T00:00:00Z');
    assert.equal(answer.to, '2026-11-04T00:00:00Z');
    assert.equal(answer.interval, 'day');
    assert.deepEqual(answer.totals, { clicks: 5, unique_visitors: 3, bot_hits: 2, qr_scans: 1 });
    assert.deepEqual(answer.series, [
      { t: '2026-11-01T00:00:00Z', clicks: 0, unique_visitors: 0 },
      { t: '2026-11-02T00:00:00Z', clicks: 5, unique_visitors: 3 },
      { t: '2026-11-03T00:00:00Z', clicks: 0, unique_visitors: 0 },
    ]);
    assert.deepEqual(answer.referrers, [
      { value: 'example.org', clicks: 4 },
      { value: 'direct', clicks: 1 },
    ]);
    for (const key of ['countries', 'devices', 'os', 'browsers', 'languages', 'sources', 'bots'] as const) {
      assert.deepEqual(answer[key], [], key);
    }
  });

  it('has one bucket per hour for hourly ranges', () => {
    const from = Date.UTC(2026, 10, 20, 22);
    const answer = statsAnswer(
      {
        totals: { clicks: 0, uniqueVisitors: 0, botHits: 0, qrScans: 0 },
        series: [],
        breakdowns: emptyBreakdowns(),
        urls: [],
      },
      { from, to: from + 3 * HOUR, interval: 'hour' },
    );
    assert.deepEqual(
      answer.series.map((point) => point.t),
      ['2026-11-20T22:00:00Z', '2026-11-20T23:00:00Z', '2026-11-21T00:00:00Z'],
    );
  });
});
