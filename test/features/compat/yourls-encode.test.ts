import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { API_ERROR_CODES, Refusal } from '../../../src/core/errors.ts';
import { xmlText, yourlsJson, yourlsXml } from '../../../src/features/compat/yourls/yourls-encode.ts';
import { statusOf, validCallback } from '../../../src/features/compat/yourls/yourls-output.ts';
import { intParam, yourlsParams } from '../../../src/features/compat/yourls/yourls-params.ts';
import { createFailureOf, isCallerRefusal } from '../../../src/features/compat/yourls/yourls-refusals.ts';
import { readXml } from '../../fixtures/sharex/yourls-xml-reader.ts';

/** The pieces of YOURLS's answers: its XML and JSON encoders, PHP's reading of parameters, the code table. */

/** The text less the C0 controls but LF and CR, DEL, lone surrogates, U+FFFE and U+FFFF. */
function kept(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const control = (code <= 0x1f && code !== 0x0a && code !== 0x0d) || code === 0x7f;
    const lone = code >= 0xd800 && code <= 0xdfff;
    if (!control && !lone && code !== 0xfffe && code !== 0xffff) out += char;
  }
  return out;
}

describe('YOURLS XML', () => {
  it('writes members under <root>, empty ones self-closed, as its encoder does', () => {
    const xml = yourlsXml({ status: 'success', code: '', url: { keyword: 'abc', clicks: 3 } });
    assert.equal(
      xml,
      '<?xml version="1.0" encoding="UTF-8"?>\n<root><status>success</status><code/><url><keyword>abc</keyword><clicks>3</clicks></url></root>\n',
    );
  });

  it('drops the characters YOURLS drops and XML cannot hold, and escapes markup', () => {
    assert.equal(xmlText('a\u0001b\tc\u007fd\ufffee\ud800f'), 'abcdef');
    assert.equal(
      xmlText('<a href="x">&amp;</a> ]]>\r\n'),
      '&lt;a href="x"&gt;&amp;amp;&lt;/a&gt; ]]&gt;&#13;\n',
    );
    assert.equal(xmlText('😀 é'), '😀 é');
  });

  it('always writes a document that reads back to the text, less what it drops', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const { value } = readXml(yourlsXml({ title: text }));
        assert.deepEqual(value, { title: kept(text) });
      }),
      { numRuns: 300 },
    );
  });
});

describe('YOURLS JSON', () => {
  it('escapes slashes and everything past ASCII as json_encode does', () => {
    const json = yourlsJson({ url: 'https://sn.ip/a', title: 'é 😀 \u2028' });
    assert.equal(json, '{"url":"https:\\/\\/sn.ip\\/a","title":"\\u00e9 \\ud83d\\ude00 \\u2028"}');
    assert.deepEqual(JSON.parse(json), { url: 'https://sn.ip/a', title: 'é 😀 \u2028' });
    assert.match(json, /^[\x20-\x7e]*$/);
  });
});

describe('YOURLS parameters', () => {
  it('reads the query and the form as $_REQUEST: the form wins, a repeated one is its last', () => {
    const params = yourlsParams(
      { action: 'expand', url: ['a', 'b'], format: 'xml', odd: { nested: 1 } },
      { format: 'json', file: Buffer.from('x'), n: 5 },
    );
    assert.deepEqual(
      [...params],
      [
        ['action', 'expand'],
        ['url', 'b'],
        ['format', 'json'],
      ],
    );
    assert.equal(yourlsParams(undefined, 'text').size, 0);
  });

  it("reads a number as PHP's intval, held within bounds", () => {
    const cases: Array<[string | undefined, number]> = [
      [undefined, 0],
      ['', 0],
      ['abc', 0],
      ['12abc', 12],
      [' 7', 7],
      ['1e3', 1000],
      ['2.9', 2],
      ['-5', 0],
      ['1e400', 1000],
      ['99999999999999999999999', 1000],
    ];
    for (const [value, expected] of cases) assert.equal(intParam(value, 0, 1000), expected, String(value));
  });

  it('takes as JSONP callback only a dotted path of name characters', () => {
    for (const good of ['cb', 'jQuery123_456', 'a.b.$c', '_']) assert.ok(validCallback(good), good);
    for (const bad of ['', 'alert(1)//', 'a b', 'a;b', 'cb\\u2028', 'menu00ff', 'a[0]', 'a\u2028']) {
      assert.ok(!validCallback(bad), bad);
    }
  });

  it('takes the HTTP status from statusCode, then errorCode', () => {
    assert.equal(statusOf({ statusCode: '404', errorCode: '400' }), 404);
    assert.equal(statusOf({ errorCode: '403' }), 403);
    assert.equal(statusOf({ version: '1' }), 200);
    assert.equal(statusOf({ statusCode: 'junk' }), 200);
  });
});

describe('YOURLS codes for Snip refusals', () => {
  it('answers every API code either as a log-in failure or as an error: code of shorturl', () => {
    for (const code of API_ERROR_CODES) {
      // Never answered to a create.
      if (['314', '318', '319', '321', '322'].includes(code)) continue;
      const refusal = new Refusal(code);
      const failure = createFailureOf(refusal);
      assert.ok(isCallerRefusal(refusal) !== (failure !== undefined), code);
      if (failure) {
        assert.match(failure.code, /^error:[a-z]+$/, code);
        assert.ok(failure.status >= 400 && failure.status < 500, code);
      }
    }
  });
});
