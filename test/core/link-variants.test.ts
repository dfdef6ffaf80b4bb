import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  testAfter,
  testWinner,
  variantAt,
  visitorBucket,
  weightBounds,
} from '../../src/core/link-variants.ts';

/** The pure rules of A/B tests (docs/api.md §20.x): the split, the ranking, the test a request leaves. */

describe('the split of a test', () => {
  it('maps buckets 0-99 onto the variants by weight, never to a weight of 0', () => {
    const bounds = weightBounds([
      { url: 'https://a.example/', weight: 30 },
      { url: 'https://b.example/', weight: 0 },
      { url: 'https://c.example/', weight: 70 },
    ]);
    assert.deepEqual(bounds, [30, 30, 100]);
    assert.equal(variantAt(bounds, 0), 1);
    assert.equal(variantAt(bounds, 29), 1);
    assert.equal(variantAt(bounds, 30), 3);
    assert.equal(variantAt(bounds, 99), 3);
  });

  it('spreads distinct visitors evenly over the buckets, differently per link', () => {
    const secret = Buffer.alloc(32, 7);
    const counts = new Array(100).fill(0);
    let same = 0;
    for (let i = 0; i < 20_000; i++) {
      const hash = createHmac('sha256', secret)
        .update(`10.0.${i >> 8}.${i & 255}\nagent`)
        .digest();
      const bucket = visitorBucket(hash, 1);
      counts[bucket]++;
      if (visitorBucket(hash, 2) === bucket) same++;
    }
    assert.ok(Math.min(...counts) > 140 && Math.max(...counts) < 260, String(counts));
    assert.ok(same < 600, `one visitor's buckets on two links are unrelated (${same} equal)`);
  });
});

describe('the winner of a test', () => {
  it('ranks by leads per click, then sales, then clicks; the first on a full tie', () => {
    assert.equal(
      testWinner([
        { clicks: 100, leads: 5, sales: 0 },
        { clicks: 10, leads: 1, sales: 0 },
        { clicks: 50, leads: 4, sales: 0 },
      ]),
      1,
    );
    assert.equal(
      testWinner([
        { clicks: 10, leads: 1, sales: 1 },
        { clicks: 20, leads: 2, sales: 3 },
      ]),
      1,
    );
    assert.equal(
      testWinner([
        { clicks: 10, leads: 0, sales: 0 },
        { clicks: 30, leads: 0, sales: 0 },
      ]),
      1,
      'without leads or sales, the most clicks',
    );
    assert.equal(
      testWinner([
        { clicks: 0, leads: 0, sales: 0 },
        { clicks: 0, leads: 0, sales: 0 },
      ]),
      0,
    );
  });
});

describe('the test a request leaves', () => {
  const a = [
    { url: 'https://a.example/', weight: 50 },
    { url: 'https://b.example/', weight: 50 },
  ];
  const checked = a.map((v) => ({
    ...v,
    target: { longUrl: v.url, normalized: v.url, parsed: new URL(v.url) },
  }));
  const current = { variants: a, endsAt: null, startedAt: new Date(1000) };

  it('leaves the test as it is when neither field is given', () => {
    assert.equal(testAfter({}, current, 5000), undefined);
  });
  it('keeps the start for the same URLs and starts anew for others', () => {
    assert.equal(testAfter({ variants: checked }, current, 5000)?.startedAt.getTime(), 1000);
    const other = [checked[1], checked[0]].filter((v) => v !== undefined);
    assert.equal(testAfter({ variants: other }, current, 5000)?.startedAt.getTime(), 5000);
  });
  it('removes the test with null, and refuses an end without variants with 300', () => {
    assert.equal(testAfter({ variants: null }, current, 5000), null);
    assert.throws(() => testAfter({ testEndsAt: new Date(9000) }, null, 5000), { code: '300' });
    assert.equal(testAfter({ testEndsAt: null }, null, 5000), undefined);
  });
});
