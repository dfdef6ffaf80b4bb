import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { derivedBreakdowns } from '../../../src/core/analytics/derived-breakdowns.ts';
import {
  hostsOfSource,
  REFERRER_SOURCES,
  sourceNamed,
  sourceOf,
} from '../../../src/core/analytics/referrer-sources.ts';
import { eventFilterOf, parseStatsFilters } from '../../../src/core/analytics/stats-filters.ts';
import {
  bucketStarts,
  dayStartIn,
  localDay,
  offsetSegments,
  rfc3339In,
} from '../../../src/core/analytics/stats-zone.ts';
import { utmOf } from '../../../src/core/analytics/utm.ts';

/** The pure parts of docs/api.md §19: referrer sources, UTM values, zone days and filter checks. */

const BERLIN = 'Europe/Berlin';

describe('referrer sources', () => {
  it('names the sources the contract lists, the host kept for any other', () => {
    const cases: Array<[string, string]> = [
      ['google.com', 'Google'],
      ['www.google.co.uk', 'Google'],
      ['t.co', 'X'],
      ['twitter.com', 'X'],
      ['x.com', 'X'],
      ['m.facebook.com', 'Facebook'],
      ['l.instagram.com', 'Instagram'],
      ['lnkd.in', 'LinkedIn'],
      ['old.reddit.com', 'Reddit'],
      ['youtu.be', 'YouTube'],
      ['www.bing.com', 'Bing'],
      ['duckduckgo.com', 'DuckDuckGo'],
      ['mail.google.com', 'Email'],
      ['outlook.live.com', 'Email'],
      ['webmail.example.net', 'Email'],
      ['news.example', 'news.example'],
      ['direct', 'direct'],
      ['google', 'google'],
    ];
    for (const [host, source] of cases) assert.equal(sourceOf(host), source, host);
  });

  it('lists every source once and finds a source by its name in any case', () => {
    const names = REFERRER_SOURCES.map((source) => source.name);
    assert.equal(new Set(names).size, names.length);
    assert.equal(sourceNamed('duckduckgo'), 'DuckDuckGo');
    assert.equal(sourceNamed('google.com'), undefined);
  });

  it('gives the store the hosts of a source, leaving out those another source claims', () => {
    assert.deepEqual(hostsOfSource('Google').prefixes, ['google.', 'www.google.']);
    assert.ok(hostsOfSource('X').exact.includes('t.co'));
    assert.deepEqual(hostsOfSource('Email').except, []);
  });
});

describe('UTM values', () => {
  it("reads the first of each from the long URL's query, decoded, not from the fragment", () => {
    assert.deepEqual(
      utmOf('https://a.example/?utm_source=news&utm_medium=e%2Dmail&utm_campaign=spring+sale'),
      {
        utm_source: 'news',
        utm_medium: 'e-mail',
        utm_campaign: 'spring sale',
      },
    );
    assert.deepEqual(utmOf('https://a.example/?utm_source=a&utm_source=b#utm_medium=x'), { utm_source: 'a' });
    assert.deepEqual(utmOf('https://a.example/path'), {});
    assert.deepEqual(utmOf('https://a.example/?utm_source='), {});
  });

  it('sums clicks per value over the URLs; hosts per source', () => {
    const derived = derivedBreakdowns(
      [
        { value: 'google.com', clicks: 2 },
        { value: 'www.google.de', clicks: 1 },
        { value: 'direct', clicks: 4 },
      ],
      [
        { value: 'https://a.example/?utm_source=news', clicks: 3 },
        { value: 'https://a.example/b?utm_source=news&utm_medium=email', clicks: 2 },
        { value: 'https://a.example/c', clicks: 9 },
      ],
    );
    assert.deepEqual(derived.referrer_source, [
      { value: 'Google', clicks: 3 },
      { value: 'direct', clicks: 4 },
    ]);
    assert.deepEqual(derived.utm_source, [{ value: 'news', clicks: 5 }]);
    assert.deepEqual(derived.utm_medium, [{ value: 'email', clicks: 2 }]);
    assert.deepEqual(derived.utm_campaign, []);
  });
});

describe('days of a zone', () => {
  it('has a day of 23 hours in March and of 25 in October in Berlin, each one day', () => {
    const march = localDay(Date.UTC(2026, 2, 29, 12), BERLIN);
    assert.equal(dayStartIn(march + 1, BERLIN) - dayStartIn(march, BERLIN), 23 * 3_600_000);
    const october = localDay(Date.UTC(2026, 9, 25, 12), BERLIN);
    const [start, end] = [dayStartIn(october, BERLIN), dayStartIn(october + 1, BERLIN)];
    assert.equal(end - start, 25 * 3_600_000);
    assert.equal(bucketStarts(start, end, 'day', BERLIN).length, 1);
    assert.equal(bucketStarts(start, end, 'hour', BERLIN).length, 25);
    assert.equal(rfc3339In(start, BERLIN), '2026-10-25T00:00:00+02:00');
    assert.equal(rfc3339In(end, BERLIN), '2026-10-26T00:00:00+01:00');
  });

  it('finds the offset change to the minute', () => {
    const segments = offsetSegments(Date.UTC(2026, 9, 20), Date.UTC(2026, 9, 30), BERLIN);
    assert.deepEqual(segments, [
      { from: Date.UTC(2026, 9, 20), offset: 2 * 3_600_000 },
      { from: Date.UTC(2026, 9, 25, 1), offset: 3_600_000 },
    ]);
  });

  it('starts a day whose midnight is skipped where the gap ends (Santiago, September)', () => {
    const day = localDay(Date.UTC(2026, 8, 6, 12), 'America/Santiago');
    assert.equal(
      rfc3339In(dayStartIn(day, 'America/Santiago'), 'America/Santiago'),
      '2026-09-06T01:00:00-03:00',
    );
  });
});

describe('stats filters', () => {
  it('normalises what it takes and names the field it refuses', () => {
    const parsed = parseStatsFilters({ country: 'de', referrer: 'GOOGLE', language: 'EN', tag: ' promo ' });
    assert.deepEqual(parsed, {
      kind: 'ok',
      filters: { country: 'DE', referrer: 'Google', language: 'en', tag: 'promo' },
    });
    assert.equal(parseStatsFilters({ device: 'phone' }).kind, 'invalid');
    assert.deepEqual(
      (parseStatsFilters({ source: ['qr'] }) as { field: string }).field,
      'source',
      'a repeated parameter is refused, not thrown on',
    );
    assert.deepEqual(parseStatsFilters({ group: 'g' }, ['country']), { kind: 'ok', filters: {} });
  });

  it('turns a source name into its hosts and a host into an equality', () => {
    assert.ok(eventFilterOf({ referrer: 'Google' }).referrerSource);
    assert.deepEqual(eventFilterOf({ referrer: 'google.com' }).equal, { referrer: 'google.com' });
  });
});
