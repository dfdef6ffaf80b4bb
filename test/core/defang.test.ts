import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defang } from '../../src/core/defang.ts';

describe('defang', () => {
  it('breaks the scheme and brackets every dot, the query’s own URLs too', () => {
    assert.equal(
      defang('https://evil.example/login?next=http://b.example/'),
      'hxxps://evil[.]example/login?next=hxxp://b[.]example/',
    );
    assert.equal(defang('HTTP://Evil.Example'), 'HxxP://Evil[.]Example');
    assert.equal(defang('ftp://files.example/x'), 'fxp://files[.]example/x');
  });

  it('cuts a long URL and says so', () => {
    const long = `https://a.example/${'x'.repeat(400)}`;
    const shown = defang(long);
    assert.ok(shown.endsWith('…'));
    assert.ok(shown.length < 320);
  });
});
