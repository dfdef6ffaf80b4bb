import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { headFacts } from '../../../src/adapters/inspect/html-head.ts';
import { extractTitle } from '../../../src/adapters/inspect/title.ts';

/**
 * A fetched page is attacker input, read on the main thread: the head is parsed in time linear in
 * its length whatever the markup. Times are compared with each other in the same run (the fastest
 * of several tries, so a busy machine slows both sides alike), never with a fixed figure: a
 * backtracking parse is hundreds of times slower on these inputs, a linear one within a few times.
 */

const KIB = 1024;
const CAP = 512 * KIB;
const encoder = new TextEncoder();

/** `unit` repeated to exactly `bytes` bytes (ASCII units). */
const repeated = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);

/** The fastest of `tries` parses of `html`, in ms. */
function fastest(html: string, tries = 5): number {
  const body = encoder.encode(html);
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < tries; i++) {
    const started = performance.now();
    extractTitle(body, 'text/html');
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/**
 * Whether `slow()` stays under `factor` times `yardstick()` in one of `rounds` paired measurements,
 * each pair taken back to back: a machine busy for a moment slows one round, never every one,
 * while a parse that backtracks is hundreds of times slower in all of them. The last pair is kept
 * for the message.
 */
function withinFactor(slow: () => number, yardstick: () => number, factor: number, rounds = 5) {
  let last = { taken: 0, against: 0 };
  for (let round = 0; round < rounds; round++) {
    last = { against: yardstick(), taken: slow() };
    if (last.taken < last.against * factor) return { ok: true, ...last };
  }
  return { ok: false, ...last };
}

/** A page of ordinary markup, the yardstick: paragraphs, links, attributes, closed tags. */
const ordinary = (bytes: number) =>
  repeated('<p class="x">Some text <a href="/a?b=c">a link</a> and <em>more</em>.</p>\n', bytes);

const ADVERSARIAL = ['<svg a', '<meta a', '<title "', '<script a', '<', '<a b=', '<!--', "<meta content='"];

describe('reading the head of a fetched page', () => {
  it('keeps the first closed <title> outside <svg>, and every <meta> with its attributes', () => {
    const facts = headFacts(
      '<META Charset=utf-8><svg><title>Icon</title></svg><title>A &amp; B</title>' +
        '<meta property="og:title" content="x" property="ignored"><title>Second</title>',
    );
    assert.equal(facts.title, 'A &amp; B');
    assert.deepEqual(
      facts.metas.map((meta) => Object.fromEntries(meta)),
      [{ charset: 'utf-8' }, { property: 'og:title', content: 'x' }],
    );
    assert.equal(headFacts('<title>Never closed').title, undefined);
  });

  it('parses adversarial markup in time that grows linearly with its length', () => {
    for (const unit of ADVERSARIAL) {
      // Sixteen times the bytes: about sixteen times the time when linear, 256 times when quadratic.
      const { ok, taken, against } = withinFactor(
        () => fastest(repeated(unit, CAP), 7),
        () => Math.max(fastest(repeated(unit, 32 * KIB), 7), 0.25),
        64,
      );
      assert.ok(ok, `${JSON.stringify(unit)}: ${against} ms → ${taken} ms`);
      assert.equal(extractTitle(encoder.encode(repeated(unit, CAP)), 'text/html'), '');
    }
  });

  it('parses any markup up to the read cap within a few times an ordinary page of that size', () => {
    const fragment = fc.constantFrom(
      '<',
      '>',
      '<svg',
      '</svg>',
      '<meta',
      '<title',
      '</title>',
      '<script',
      '</script>',
      '<style',
      '<!--',
      '-->',
      ' a',
      '=',
      '"',
      "'",
      '/',
      '&amp;',
      'x',
    );
    fc.assert(
      fc.property(fc.array(fragment, { minLength: 1, maxLength: 40 }), (parts) => {
        const html = repeated(parts.join(''), CAP);
        const { ok, taken, against } = withinFactor(
          () => fastest(html, 3),
          () => Math.max(fastest(ordinary(CAP), 3), 1),
          20,
        );
        assert.ok(ok, `${JSON.stringify(parts.join(''))}: ${taken} ms, ordinary ${against} ms`);
        assert.ok(Array.from(extractTitle(encoder.encode(html), 'text/html')).length <= 300);
      }),
      { numRuns: 25 },
    );
  });
});
