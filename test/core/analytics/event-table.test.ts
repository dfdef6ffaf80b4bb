import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventTable } from '../../../src/core/analytics/event-table.ts';
import type { ClickEvent } from '../../../src/core/analytics/model.ts';

function event(n: number): ClickEvent {
  return {
    linkId: 1 + (n % 3),
    workspaceId: 7,
    at: 1_700_000_000_000 + n,
    referrer: n % 2 === 0 ? 'direct' : 'news.example.com',
    country: 'DE',
    device: 'mobile',
    os: 'Android',
    browser: 'Chrome',
    language: n % 5 === 0 ? 'fr' : 'en',
    source: 'link',
    // The A/B test's variant the click went to; '' without a test.
    variant: n % 4 === 0 ? '2' : '',
    visitor: n.toString(16).padStart(16, '0'),
  };
}

describe('EventTable', () => {
  const events = Array.from({ length: 300 }, (_, n) => event(n));

  it('gives back the events it was given, each string kept once', () => {
    const table = EventTable.of(events);
    assert.equal(table.length, 300);
    assert.deepEqual(table.all(), events);
    assert.equal(table.values.filter((value) => value === 'direct').length, 1);
  });

  it('slices, concatenates and crosses as columns without changing an event', () => {
    const table = EventTable.of(events);
    assert.deepEqual(table.slice(100, 250).all(), events.slice(100, 250));
    assert.deepEqual(table.slice(290, 400).all(), events.slice(290));
    assert.equal(table.slice(300, 310).length, 0);
    const other = EventTable.of([event(1000), event(1001)]);
    assert.deepEqual(table.slice(0, 10).concat(other).all(), [
      ...events.slice(0, 10),
      event(1000),
      event(1001),
    ]);
    assert.deepEqual(EventTable.fromColumns(table.slice(50, 60).toColumns()).all(), events.slice(50, 60));
  });
});
