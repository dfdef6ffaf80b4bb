import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  instantInZone,
  isTimeZone,
  timeZones,
  wallDayOf,
  wallInputOf,
  wallTimeOf,
  zoneOrUtc,
} from '../../src/core/time-zone.ts';

/** A workspace's time zone (docs/api.md §18): which names are zones, and wall clock ↔ instant. */

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('time zones', () => {
  it('knows the IANA zones of the runtime and UTC, and nothing else', () => {
    for (const zone of ['UTC', 'Europe/Paris', 'America/New_York', 'Pacific/Chatham']) {
      assert.ok(isTimeZone(zone), zone);
      assert.ok(timeZones().includes(zone), zone);
    }
    // Current names the runtime lists under older ones.
    for (const zone of ['Asia/Kolkata', 'Europe/Kyiv']) assert.ok(isTimeZone(zone), zone);
    const refused = ['', 'utc', 'europe/paris', 'asia/kolkata', 'EUROPE/PARIS', 'Mars/Olympus', '+02:00'];
    for (const value of [...refused, 'GMT+2', 'Europe/Paris/', 'x'.repeat(300), 7, null, undefined]) {
      assert.equal(isTimeZone(value), false, String(value));
    }
    assert.deepEqual([...timeZones()].sort(), timeZones(), 'sorted');
    // A stored zone this runtime no longer knows is read as UTC, never failing a page.
    assert.equal(zoneOrUtc('Mars/Olympus'), 'UTC');
    assert.equal(zoneOrUtc(undefined), 'UTC');
    assert.equal(zoneOrUtc('Asia/Kolkata'), 'Asia/Kolkata');
  });

  it('reads a wall-clock time in a zone as its instant, and shows it back', () => {
    assert.equal(iso(instantInZone('2027-01-31T12:00', 'Europe/Paris')), '2027-01-31T11:00:00.000Z');
    assert.equal(iso(instantInZone('2027-07-01T12:00', 'Europe/Paris')), '2027-07-01T10:00:00.000Z');
    assert.equal(iso(instantInZone('2027-07-01 09:15:30', 'America/New_York')), '2027-07-01T13:15:30.000Z');
    assert.equal(iso(instantInZone('2027-01-31T12:00', 'Asia/Kolkata')), '2027-01-31T06:30:00.000Z');
    assert.equal(iso(instantInZone('2027-01-31T12:00', 'UTC')), '2027-01-31T12:00:00.000Z');
    assert.equal(wallInputOf(new Date('2027-01-31T11:00:00Z'), 'Europe/Paris'), '2027-01-31T12:00');
    assert.equal(wallInputOf(new Date('2027-01-31T11:00:07Z'), 'Europe/Paris'), '2027-01-31T12:00:07');
    assert.equal(wallTimeOf(new Date('2027-01-31T23:30:00Z'), 'Asia/Tokyo'), '2027-02-01 08:30 Asia/Tokyo');
    assert.equal(wallDayOf(new Date('2027-01-31T23:30:00Z'), 'Asia/Tokyo'), '2027-02-01');
    assert.equal(wallTimeOf(new Date('2027-01-31T23:30:00Z'), 'UTC'), '2027-01-31 23:30 UTC');
  });

  it('refuses text that is not a wall-clock time, or a day that does not exist', () => {
    for (const text of [
      'tomorrow',
      '2027-02-30T10:00',
      '2027-01-31T24:00',
      '2027-01-31T12:60',
      '2027-01-31',
      '2027-01-31T12:00Z',
    ]) {
      assert.equal(instantInZone(text, 'Europe/Paris'), undefined, text);
    }
  });

  it('takes the earlier instant of a time that happens twice, and of one the clocks skip', () => {
    // Paris goes back from 03:00 CEST to 02:00 CET on 2027-10-31: 02:30 happens twice.
    assert.equal(iso(instantInZone('2027-10-31T02:30', 'Europe/Paris')), '2027-10-31T00:30:00.000Z');
    // Paris skips from 02:00 CET to 03:00 CEST on 2027-03-28: 02:30 never happens.
    const skipped = instantInZone('2027-03-28T02:30', 'Europe/Paris');
    assert.equal(iso(skipped), '2027-03-28T00:30:00.000Z');
    assert.equal(wallInputOf(new Date(skipped ?? 0), 'Europe/Paris'), '2027-03-28T01:30');
    // Every time of an ordinary day round-trips.
    for (let hour = 0; hour < 24; hour++) {
      const text = `2027-05-12T${String(hour).padStart(2, '0')}:45`;
      assert.equal(
        wallInputOf(new Date(instantInZone(text, 'Australia/Lord_Howe') ?? 0), 'Australia/Lord_Howe'),
        text,
      );
    }
  });
});
