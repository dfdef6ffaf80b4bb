import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { preferredLanguage } from '../../src/core/targeting.ts';

describe('preferredLanguage', () => {
  const cases: [header: string | undefined, language: string | undefined][] = [
    ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'fr'],
    ['en-US,en;q=0.9', 'en'],
    ['de', 'de'],
    ['DE-de', 'de'],
    ['zh-Hant-TW;q=0.8, en;q=0.9', 'en'],
    ['en;q=0.5, fr;q=0.8, de;q=0.8', 'fr'],
    ['es;q=0.5,pt-BR', 'pt'],
    ['gsw-CH', 'gsw'],
    ['  it ;  q=1 ', 'it'],
    ['nl;Q=0.7, sv;q=0.6', 'nl'],
    ['*', undefined],
    ['*, ja;q=0.1', 'ja'],
    ['en;q=0', undefined],
    ['en;q=0.000, ko;q=0.001', 'ko'],
    ['fr;q=0, en', 'en'],
    ['i-klingon, x-pig-latin, pl;q=0.1', 'pl'],
    ['tlh-Latn;q=0.2, pl;q=0.1', 'tlh'],
    ['en;q=2, fr;q=0.3', 'fr'],
    ['en;q=abc, fr;q=0.3', 'fr'],
    ['en;q=0.5555, fr;q=0.3', 'fr'],
    ['en;level=1;q=0.4, fr;q=0.3', 'en'],
    ['', undefined],
    [undefined, undefined],
    [',,,;;;', undefined],
    ['français', undefined],
    ['en_US', undefined],
    ['<script>', undefined],
    ['123, 4-5', undefined],
  ];
  for (const [header, language] of cases) {
    it(`reads ${JSON.stringify(header)} as ${language ?? 'no language'}`, () => {
      assert.equal(preferredLanguage(header), language);
    });
  }

  it('reads no more than the first 20 entries', () => {
    const twenty = Array.from({ length: 19 }, () => 'xx-y;q=0').join(', ');
    assert.equal(preferredLanguage(`${twenty}, fr;q=0.1`), 'fr');
    assert.equal(preferredLanguage(`${twenty}, xx;q=0, fr;q=0.1`), undefined);
  });

  it('reads no more than the first kilobyte', () => {
    const header = (padding: number) => `en;q=0.1,${' '.repeat(padding)}fr`;
    assert.equal(header(1013).length, 1024);
    assert.equal(preferredLanguage(header(1013)), 'fr');
    assert.equal(preferredLanguage(header(1014)), 'en');
  });

  it('is not slowed by a hostile header', () => {
    const started = performance.now();
    for (const hostile of [',', ';', 'a-', '-a', ';q=', 'a'.repeat(8), ' ']) {
      assert.equal(preferredLanguage(hostile.repeat(100_000)), undefined);
    }
    assert.ok(performance.now() - started < 1000);
  });
});
