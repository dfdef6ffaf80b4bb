import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { urlFault, withAssumedScheme } from '../../src/core/url-input.ts';

/** A long URL as a person types it (docs/api.md §18): the https:// the pages assume, and why one is refused. */

describe('a URL as typed', () => {
  it('gets https:// when typed without a scheme and the rest is a host', () => {
    for (const [typed, meant] of [
      ['example.com/x', 'https://example.com/x'],
      ['www.example.co.uk?q=1', 'https://www.example.co.uk?q=1'],
      ['example.com:8080/a', 'https://example.com:8080/a'],
      ['  example.com  ', 'https://example.com'],
      ['bücher.de/x', 'https://bücher.de/x'],
      ['203.0.113.9/page', 'https://203.0.113.9/page'],
    ]) {
      assert.equal(withAssumedScheme(typed ?? ''), meant, typed);
    }
  });

  it('keeps anything else as typed, for the checks to refuse', () => {
    for (const typed of [
      'localhost',
      'localhost:3000/x',
      'foo',
      'a.b',
      'example.c0m',
      'javascript:alert(1)',
      'mailto:ada@example.com',
      '//example.com',
      'user@example.com',
      'exa mple.com',
      'https://example.com',
      'http://example.com',
      '999.1.1.1/x',
      '',
    ]) {
      assert.equal(withAssumedScheme(typed), typed, typed);
    }
  });

  it('names the cause of a refused URL, and none for an acceptable or empty one', () => {
    assert.equal(urlFault('https://example.com/'), undefined);
    assert.equal(urlFault(''), undefined);
    assert.equal(urlFault('example.com/x'), 'no-scheme');
    assert.equal(urlFault('localhost'), 'no-scheme');
    assert.equal(urlFault('ftp://example.com/'), 'scheme');
    assert.equal(urlFault('javascript:alert(1)'), 'scheme');
    assert.equal(urlFault('https://ada:secret@example.com/'), 'credentials');
    assert.equal(urlFault('https://ada@example.com/'), 'credentials');
    assert.equal(urlFault(`https://example.com/${'a'.repeat(2048)}`), 'too-long');
    assert.equal(urlFault('https://exa mple.com/'), 'malformed');
    assert.equal(urlFault('https://'), 'malformed');
  });
});
