import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { secondsUntil, windowAt } from '../../src/core/rate-window.ts';
import {
  generateShortCode,
  isLinkCode,
  pooledRandomBytes,
  SHORT_CODE_PATTERN,
} from '../../src/core/short-code.ts';
import { DEFAULT_SOCIAL_DOMAINS, socialMatcher } from '../../src/core/social.ts';
import { formatTimestamp } from '../../src/core/timestamp.ts';
import { isApiId, slugify } from '../../src/features/groups/group-fields.ts';
import { API_STATUS } from '../../src/http/api-statuses.ts';

describe('error table', () => {
  it('maps every code of docs/api.md §2.3 to its HTTP status', () => {
    const expected = {
      '300': 400,
      '301': 401,
      '302': 400,
      '303': 401,
      '304': 403,
      '305': 409,
      '306': 422,
      '307': 422,
      '308': 422,
      '309': 422,
      '310': 422,
      '311': 422,
      '312': 422,
      '313': 409,
      '314': 404,
      '315': 403,
      '316': 403,
      '317': 400,
      '318': 409,
      '319': 409,
      '320': 422,
      '321': 404,
      '322': 404,
      '429': 429,
    };
    assert.deepEqual({ ...API_STATUS }, expected);
  });
});

describe('short codes', () => {
  it('are 7 characters of [0-9A-Za-z]', () => {
    for (let i = 0; i < 1000; i++) {
      const code = generateShortCode();
      assert.match(code, SHORT_CODE_PATTERN);
      assert.ok(isLinkCode(code));
    }
  });

  it('draw pooled random bytes that are never handed out twice', () => {
    const slices = Array.from({ length: 600 }, () => pooledRandomBytes(14));
    // 600 × 14 bytes span three 4 KB pools: every slice is its own, none overlaps another's bytes.
    const seen = new Set<string>();
    for (const slice of slices) {
      assert.equal(slice.length, 14);
      seen.add(Buffer.from(slice).toString('hex'));
    }
    assert.equal(seen.size, 600);
    const views = new Map<ArrayBufferLike, Array<[number, number]>>();
    for (const slice of slices) {
      const ranges = views.get(slice.buffer) ?? [];
      for (const [start, end] of ranges) assert.ok(slice.byteOffset >= end || slice.byteOffset + 14 <= start);
      ranges.push([slice.byteOffset, slice.byteOffset + 14]);
      views.set(slice.buffer, ranges);
    }
    assert.equal(pooledRandomBytes(10_000).length, 10_000);
  });

  it('skip bytes at or above 248 so no character is favoured', () => {
    const bytes = Uint8Array.from([255, 248, 0, 61, 62, 247, 250, 1, 2, 3, 0, 0, 0, 0]);
    assert.equal(
      generateShortCode(() => bytes),
      '0z0z123',
    );
  });

  it('draws every character about equally often', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 20_000; i++)
      for (const ch of generateShortCode()) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    assert.equal(counts.size, 62);
    const mean = (20_000 * 7) / 62;
    for (const n of counts.values()) assert.ok(Math.abs(n - mean) < mean * 0.2);
  });
});

describe('social networks', () => {
  const isSocial = socialMatcher(DEFAULT_SOCIAL_DOMAINS);
  it('matches a listed domain and its subdomains', () => {
    for (const host of [
      'x.com',
      'www.x.com',
      'mobile.twitter.com',
      'FACEBOOK.com',
      'old.reddit.com',
      'wa.me',
      'x.com.',
    ]) {
      assert.equal(isSocial(host), true, host);
    }
  });
  it('never matches by substring', () => {
    for (const host of [
      'netflix.com',
      'box.com',
      'notfacebook.com',
      'x.com.evil.example',
      'instagram.co',
      'met.co',
    ]) {
      assert.equal(isSocial(host), false, host);
    }
  });
  it('uses the configured list instead of the default', () => {
    const custom = socialMatcher(['example.org']);
    assert.equal(custom('a.example.org'), true);
    assert.equal(custom('x.com'), false);
  });
});

describe('rate windows', () => {
  it('align hourly windows to the top of the UTC hour', () => {
    const at = Date.UTC(2026, 0, 1, 13, 25, 10, 500);
    const w = windowAt(at, 3_600_000);
    assert.equal(w.start, Date.UTC(2026, 0, 1, 13));
    assert.equal(w.end, Date.UTC(2026, 0, 1, 14));
    assert.equal(secondsUntil(w.end, at), 2090);
    assert.equal(secondsUntil(w.end, w.end - 1), 1);
  });
});

describe('timestamps', () => {
  it('formats YYYY/MM/DD HH:MM:SS in the zone', () => {
    const at = new Date(Date.UTC(2026, 11, 31, 23, 5, 9));
    assert.equal(formatTimestamp(at, 'UTC'), '2026/12/31 23:05:09');
    assert.equal(formatTimestamp(at, 'Europe/Berlin'), '2027/01/01 00:05:09');
    assert.equal(formatTimestamp(new Date(Date.UTC(2026, 0, 1, 0, 0, 0)), 'UTC'), '2026/01/01 00:00:00');
  });
});

describe('group API identifiers', () => {
  it('slugify names into lower-case slugs that are never all digits', () => {
    assert.equal(slugify('Spring Sale 2026!'), 'spring-sale-2026');
    assert.equal(slugify('Café Crème'), 'cafe-creme');
    assert.equal(slugify('2026'), 'group-2026');
    assert.equal(slugify('!!!'), 'group');
  });
  it('accepts slugs and refuses the rest', () => {
    assert.equal(isApiId('news-letter'), true);
    assert.equal(isApiId('123'), false);
    assert.equal(isApiId('Upper'), false);
    assert.equal(isApiId('-edge'), false);
  });
});
