import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Refusal } from '../../src/core/errors.ts';
import { checkLinkRules, checkSlug, checkTags, checkTitle } from '../../src/core/link-fields.ts';

/** The fields of a link besides its target (docs/api.md §7–8): slug, title, tags, link rules. */

function refusedWith(code: string, run: () => unknown): void {
  assert.throws(run, (error) => error instanceof Refusal && error.code === code);
}

describe('link fields', () => {
  it('take a slug of 3-64 of [A-Za-z0-9_-]; 300 for another shape, 313 for a path of Snip', () => {
    assert.equal(checkSlug('Ab_3-x'), 'Ab_3-x');
    for (const slug of ['ab', 'x'.repeat(65), 'a b', 'a.b', 'a/b', 'a%41', 'ça-va', 'emoji😀'])
      refusedWith('300', () => checkSlug(slug));
    for (const slug of ['api', 'API', 'Docs', 'qrcode', 'assets']) refusedWith('313', () => checkSlug(slug));
  });

  it('trim a title, keep it to 500 characters, refuse control characters', () => {
    assert.equal(checkTitle('  Hello  '), 'Hello');
    assert.equal(checkTitle('é'.repeat(500)).length, 500);
    refusedWith('300', () => checkTitle('x'.repeat(501)));
    refusedWith('300', () => checkTitle('line\nbreak'));
  });

  it('trim, dedupe and sort tags; at most 20 of 1-50 characters, no commas', () => {
    assert.deepEqual(checkTags([' b ', 'a', 'b', 'Ünïcode tag', 'Q4/2026 #1']), [
      'Q4/2026 #1',
      'a',
      'b',
      'Ünïcode tag',
    ]);
    assert.deepEqual(checkTags(Array.from({ length: 25 }, () => 'same')), ['same']);
    for (const tags of [
      [''],
      ['  '],
      ['a,b'],
      ['x'.repeat(51)],
      ['tab\there'],
      Array.from({ length: 21 }, (_, i) => `t${i}`),
    ]) {
      refusedWith('300', () => checkTags(tags));
    }
  });

  it('check the shape of link rules: a future expiry, 1 to a billion clicks, a password, at most 20 rules', () => {
    const now = Date.UTC(2026, 10, 23);
    assert.deepEqual(checkLinkRules({}, now), {});
    assert.deepEqual(checkLinkRules({ expiresAt: null, maxClicks: null, password: null, rules: null }, now), {
      expiresAt: null,
      maxClicks: null,
      password: null,
      rules: [],
    });
    const checked = checkLinkRules(
      {
        expiresAt: '2027-01-01T00:00:00+01:00',
        maxClicks: 10,
        password: 'pass word',
        rules: [{ if: { device: 'ios', country: 'de', language: 'FR' }, url: 'HTTPS://Example.com/ios' }],
      },
      now,
    );
    assert.equal(checked.expiresAt?.toISOString(), '2026-12-31T23:00:00.000Z');
    assert.equal(checked.maxClicks, 10);
    assert.equal(checked.password, 'pass word');
    assert.deepEqual(
      checked.rules?.map((rule) => [rule.if, rule.url]),
      [[{ device: 'ios', country: 'DE', language: 'fr' }, 'HTTPS://Example.com/ios']],
    );
    const rule = { if: { device: 'ios' }, url: 'https://example.com/' };
    for (const fields of [
      { expiresAt: '2026-11-22T00:00:00Z' },
      { expiresAt: '2026-11-23' },
      { expiresAt: 'soon' },
      { maxClicks: 0 },
      { maxClicks: -1 },
      { maxClicks: 2.5 },
      { maxClicks: 1_000_000_001 },
      { password: '' },
      { password: 'seven c' },
      { password: 'x'.repeat(1025) },
      { rules: Array.from({ length: 21 }, () => rule) },
      { rules: [{ if: {}, url: 'https://example.com/' }] },
      { rules: [{ if: { device: 'fridge' }, url: 'https://example.com/' }] },
      { rules: [{ if: { country: 'Germany' }, url: 'https://example.com/' }] },
      { rules: [{ if: { language: 'french' }, url: 'https://example.com/' }] },
      { rules: [{ if: { device: 'ios', weekday: 'mon' }, url: 'https://example.com/' }] },
      { rules: [{ if: { device: 'ios' }, url: 'ftp://example.com/' }] },
      { rules: [{ if: { device: 'ios' } }] },
      { rules: ['https://example.com/'] },
    ]) {
      refusedWith('300', () => checkLinkRules(fields, now));
    }
    assert.equal(checkLinkRules({ rules: Array.from({ length: 20 }, () => rule) }, now).rules?.length, 20);
  });
});
