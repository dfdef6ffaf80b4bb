import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { countLines, csvRecords } from '../../../src/features/imports/csv-records.ts';

/** The CSV reader of `snip link import`: records, the line each starts on, and errors as data. */

describe('csvRecords', () => {
  it('numbers each record by the line it starts on, after quoted fields that span lines', () => {
    const text = [
      'url,title',
      'https://example.com/a,"two',
      'lines"',
      'https://example.com/b,"with ""quotes"", commas,\r',
      'and a CRLF"',
      'https://example.com/c,last',
    ].join('\n');
    assert.deepEqual(csvRecords(text), [
      { line: 1, fields: ['url', 'title'] },
      { line: 2, fields: ['https://example.com/a', 'two\nlines'] },
      { line: 4, fields: ['https://example.com/b', 'with "quotes", commas,\r\nand a CRLF'] },
      { line: 6, fields: ['https://example.com/c', 'last'] },
    ]);
  });

  it('reads CRLF and LF mixed in one file, keeps a lone CR as text, and skips a leading BOM', () => {
    const text = '\uFEFFurl,slug\r\nhttps://example.com/a,a\nhttps://example.com/b,b\rc\r\n';
    assert.deepEqual(csvRecords(text), [
      { line: 1, fields: ['url', 'slug'] },
      { line: 2, fields: ['https://example.com/a', 'a'] },
      { line: 3, fields: ['https://example.com/b', 'b\rc'] },
    ]);
  });

  it('leaves out blank lines and lines of empty fields, still counting them', () => {
    const text = '\nhttps://example.com/a\n,,,\n  \n""\n\r\nhttps://example.com/b';
    assert.deepEqual(csvRecords(text), [
      { line: 2, fields: ['https://example.com/a'] },
      { line: 7, fields: ['https://example.com/b'] },
    ]);
  });

  it('reports a stray quote inside an unquoted field with its line, and reads the next line', () => {
    assert.deepEqual(
      csvRecords('https://example.com/a\nhttps://example.com/say "hi",x\nhttps://example.com/b\n'),
      [
        { line: 1, fields: ['https://example.com/a'] },
        { line: 2, error: 'a quote inside a field that does not start with one' },
        { line: 3, fields: ['https://example.com/b'] },
      ],
    );
  });

  it('reports text after a closing quote at the line its record starts on, and goes on at the next', () => {
    const text = 'https://example.com/a,"spans\nlines"x\nhttps://example.com/b\n';
    assert.deepEqual(csvRecords(text), [
      { line: 1, error: 'text follows a closing quote' },
      { line: 2, error: 'a quote inside a field that does not start with one' },
      { line: 3, fields: ['https://example.com/b'] },
    ]);
  });

  it('reports a quote never closed at its line, and reads the lines after it as records', () => {
    const text =
      'https://example.com/a\n"https://example.com/unclosed,x\nhttps://example.com/b\r\nhttps://example.com/c';
    assert.deepEqual(csvRecords(text), [
      { line: 1, fields: ['https://example.com/a'] },
      { line: 2, error: 'a quoted field is not closed' },
      { line: 3, fields: ['https://example.com/b'] },
      { line: 4, fields: ['https://example.com/c'] },
    ]);
  });

  it('gives nothing for an empty file or one of only a byte order mark', () => {
    assert.deepEqual(csvRecords(''), []);
    assert.deepEqual(csvRecords('\uFEFF'), []);
    assert.equal(countLines(''), 0);
  });

  it('reads back any records written by RFC 4180, each at the line it starts on', () => {
    const unit = fc.constantFrom('a', 'é', '✨', ' ', ',', '"', '\n', '\r', '\r\n');
    const field = fc.string({ unit, maxLength: 12 });
    const record = fc
      .array(field, { minLength: 1, maxLength: 6 })
      .filter((fields) => fields.some((value) => value.trim() !== ''));
    const quote = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(record, fc.constantFrom('\n', '\r\n')), { maxLength: 20 }),
        fc.boolean(),
        (records, bom) => {
          let text = bom ? '\uFEFF' : '';
          const expected = records.map(([fields, end]) => {
            const line = countLines(`${text}.`);
            text += fields.map(quote).join(',') + end;
            return { line, fields };
          });
          assert.deepEqual(csvRecords(text), expected);
        },
      ),
    );
  });
});
