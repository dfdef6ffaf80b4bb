import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Refusal } from '../../src/core/errors.ts';
import { checkSlug, checkTags, checkTitle, refuseLinkRules } from '../../src/core/link-fields.ts';

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

  it('validate link rules and refuse any that would need enforcing; null passes', () => {
    const now = Date.UTC(2026, 10, 23);
    refuseLinkRules({}, now);
    refuseLinkRules({ expiresAt: null, maxClicks: null, password: null, rules: null }, now);
    refuseLinkRules({ rules: [] }, now);
    for (const fields of [
      { expiresAt: '2026-11-22T00:00:00Z' },
      { expiresAt: '2026-11-23' },
      { expiresAt: 'soon' },
      { maxClicks: 0 },
      { maxClicks: 2.5 },
      { password: '' },
      { expiresAt: '2027-01-01T00:00:00+01:00' },
      { maxClicks: 5 },
      { password: 'pw' },
      { rules: [{ if: {}, url: 'https://example.com' }] },
    ]) {
      refusedWith('300', () => refuseLinkRules(fields, now));
    }
  });
});
