import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { describe, it } from 'node:test';
import { extractTitle } from '../../../src/adapters/inspect/title.ts';
import { SHIFT_JIS_TITLE, windows1251 } from '../../fixtures/encoded-text.ts';

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const HTML = 'text/html; charset=utf-8';

describe('extractTitle', () => {
  it('returns the text of the <title> element', () => {
    assert.equal(extractTitle(utf8('<html><head><title>Hello</title></head></html>'), HTML), 'Hello');
  });

  it('decodes windows-1251 bytes named by the Content-Type charset', () => {
    const body = windows1251('<html><head><title>Привет, мир</title></head></html>');
    assert.equal(extractTitle(body, 'text/html; charset=windows-1251'), 'Привет, мир');
  });

  it('decodes Shift_JIS bytes declared only by <meta charset>', () => {
    const body = Buffer.concat([
      utf8('<html><head><meta charset="Shift_JIS"><title>'),
      SHIFT_JIS_TITLE.bytes,
      utf8('</title></head></html>'),
    ]);
    assert.equal(extractTitle(body, 'text/html'), SHIFT_JIS_TITLE.text);
  });

  it('reads the charset from <meta http-equiv="Content-Type">', () => {
    const body = Buffer.concat([
      utf8('<head><meta http-equiv="content-type" content="text/html; charset=windows-1251"><title>'),
      windows1251('Заголовок'),
      utf8('</title>'),
    ]);
    assert.equal(extractTitle(body, undefined), 'Заголовок');
  });

  it('prefers the Content-Type charset to a conflicting <meta charset>', () => {
    const body = windows1251('<meta charset="utf-8"><title>Ёлка</title>');
    assert.equal(extractTitle(body, 'text/html; charset=windows-1251'), 'Ёлка');
  });

  it('strips a UTF-8 BOM', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8('<title>Café</title>')]);
    assert.equal(extractTitle(body, 'text/html'), 'Café');
  });

  it('decodes a UTF-16LE body recognised by its BOM', () => {
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<title>Ωmega</title>', 'utf16le')]);
    assert.equal(extractTitle(body, 'text/html'), 'Ωmega');
  });

  it('trusts a BOM over a conflicting header charset, as browsers do', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8('<title>Привет</title>')]);
    assert.equal(extractTitle(body, 'text/html; charset=windows-1251'), 'Привет');
  });

  it('falls back to UTF-8 when the charset label is unknown', () => {
    assert.equal(extractTitle(utf8('<title>naïve</title>'), 'text/html; charset=x-no-such-charset'), 'naïve');
  });

  it('decodes HTML entities once, leaving markup-like text as text', () => {
    const body = utf8('<title>Tom &amp; Jerry &mdash; &#x1F600; &lt;img src=x onerror=alert(1)&gt;</title>');
    assert.equal(extractTitle(body, HTML), 'Tom & Jerry — 😀 <img src=x onerror=alert(1)>');
  });

  it('does not decode an entity twice', () => {
    assert.equal(extractTitle(utf8('<title>&amp;lt;b&amp;gt;</title>'), HTML), '&lt;b&gt;');
  });

  it('collapses whitespace and trims', () => {
    const body = utf8('<title>\n\t  Many   \r\n spaces&nbsp;&nbsp;here \t</title>');
    assert.equal(extractTitle(body, HTML), 'Many spaces here');
  });

  it('accepts upper-case tags and attributes on <title>', () => {
    assert.equal(extractTitle(utf8('<HTML><HEAD><TITLE lang="en" data-x=1>Loud</TITLE>'), HTML), 'Loud');
  });

  it('falls back to og:title when there is no <title>', () => {
    const body = utf8(
      '<head><meta content="OG &amp; Co" property="og:title"><meta name="x" content="y"></head>',
    );
    assert.equal(extractTitle(body, HTML), 'OG & Co');
  });

  it('prefers <title> to og:title', () => {
    const body = utf8('<meta property="og:title" content="Social"><title>Document</title>');
    assert.equal(extractTitle(body, HTML), 'Document');
  });

  it('ignores a <title> inside <svg>, a comment or a script', () => {
    const body = utf8(
      '<head><!-- <title>Comment</title> --><script>let t = "<title>Script</title>";</script></head>' +
        '<body><svg><title>Icon</title></svg><title>Real</title></body>',
    );
    assert.equal(extractTitle(body, HTML), 'Real');
  });

  it('cuts at 300 code points without splitting a surrogate pair', () => {
    const body = utf8(`<title>${'a'.repeat(299)}😀😀😀</title>`);
    const title = extractTitle(body, HTML);
    assert.equal(Array.from(title).length, 300);
    assert.equal(title, `${'a'.repeat(299)}😀`);
  });

  it('returns "" for a content type that is not HTML', () => {
    assert.equal(extractTitle(utf8('<title>Not a page</title>'), 'application/json'), '');
    assert.equal(extractTitle(utf8('<title>Not a page</title>'), 'text/plain; charset=utf-8'), '');
  });

  it('reads application/xhtml+xml as HTML', () => {
    assert.equal(extractTitle(utf8('<?xml version="1.0"?><title>X</title>'), 'application/xhtml+xml'), 'X');
  });

  it('sniffs markup when the content type is missing', () => {
    assert.equal(extractTitle(utf8('  <!doctype html><title>Sniffed</title>'), undefined), 'Sniffed');
    assert.equal(extractTitle(utf8('plain text mentioning <title>x</title>'), undefined), '');
  });

  it('returns "" when there is no title', () => {
    assert.equal(extractTitle(utf8('<html><head></head><body>no title</body></html>'), HTML), '');
    assert.equal(extractTitle(new Uint8Array(0), HTML), '');
  });

  it('treats a title cut off by the read cap as absent', () => {
    assert.equal(extractTitle(utf8('<html><head><title>Half a tit'), HTML), '');
  });

  it('finds the title at the top of a 10 MB page', () => {
    const body = Buffer.concat([
      utf8('<html><head><title>Big</title></head><body>'),
      Buffer.alloc(10 << 20, 'x'),
    ]);
    assert.equal(extractTitle(body, HTML), 'Big');
  });
});
