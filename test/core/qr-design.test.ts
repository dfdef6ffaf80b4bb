import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Refusal } from '../../src/core/errors.ts';
import {
  contrastRatio,
  hexColour,
  lenientQrDesign,
  QR_DEFAULT_LOOK,
  strictQrDesign,
} from '../../src/core/qr-design.ts';

const DEFAULTS = { size: 256, ...QR_DEFAULT_LOOK };

function refused(query: Record<string, unknown>): void {
  assert.throws(
    () => strictQrDesign(query),
    (error: unknown) => error instanceof Refusal && error.code === '300',
    JSON.stringify(query),
  );
}

describe('QR colours', () => {
  it('reads #rgb and #rrggbb, with or without #, in any case, as lower-case #rrggbb', () => {
    assert.equal(hexColour('#FfF'), '#ffffff');
    assert.equal(hexColour('1a237e'), '#1a237e');
    assert.equal(hexColour('#1A237E'), '#1a237e');
    assert.equal(hexColour('0a0'), '#00aa00');
  });

  it('reads nothing else: names, alpha, other lengths, stray characters', () => {
    for (const raw of [
      'red',
      '#ggg',
      '#fff0',
      '#ffffff00',
      'ffff',
      '#12345',
      '',
      '#',
      '##fff',
      ' fff',
      'fff\n',
      '+fff',
    ]) {
      assert.equal(hexColour(raw), undefined, JSON.stringify(raw));
    }
  });

  it('measures WCAG contrast either way round', () => {
    assert.equal(contrastRatio('#000000', '#ffffff'), 21);
    assert.equal(contrastRatio('#ffffff', '#000000'), 21);
    assert.equal(contrastRatio('#777777', '#777777'), 1);
    // #767676 on white is the well-known 4.54:1.
    assert.equal(contrastRatio('#767676', '#ffffff').toFixed(2), '4.54');
    assert.ok(contrastRatio('#ffff00', '#ffffff') < 3);
  });
});

describe('the image route reading a QR design', () => {
  it('takes the defaults for an empty query', () => {
    assert.deepEqual(lenientQrDesign({}), DEFAULTS);
  });

  it('takes every good value, the first of repeated ones', () => {
    assert.deepEqual(
      lenientQrDesign({ size: ['512', '64'], margin: '0', fg: '#1A237E', bg: 'fff9c4', ecc: 'h' }),
      { size: 512, margin: 0, fg: '#1a237e', bg: '#fff9c4', ecc: 'H' },
    );
  });

  it('clamps whole numbers to their range and takes the default for anything else', () => {
    for (const [size, expected] of [
      ['0', 64],
      ['1', 64],
      ['99999', 1024],
      ['9'.repeat(40), 1024],
      ['-1', 256],
      ['1e9', 256],
      ['12.5', 256],
      ['', 256],
    ] as const) {
      assert.equal(lenientQrDesign({ size }).size, expected, size);
    }
    for (const [margin, expected] of [
      ['17', 16],
      ['999999', 16],
      ['-1', 4],
      ['two', 4],
    ] as const) {
      assert.equal(lenientQrDesign({ margin }).margin, expected, margin);
    }
  });

  it('ignores unreadable colours and levels one by one', () => {
    assert.deepEqual(lenientQrDesign({ fg: 'red', bg: '#ggg', ecc: 'X' }), DEFAULTS);
    assert.deepEqual(lenientQrDesign({ fg: '#fff0', bg: ['navy'] }), DEFAULTS);
    assert.equal(lenientQrDesign({ fg: 'red', bg: '#fff9c4' }).bg, '#fff9c4');
  });

  it('draws black on white when the colours are under 3:1 apart', () => {
    assert.deepEqual(lenientQrDesign({ fg: '#777777', bg: '#888888' }), DEFAULTS);
    // Yellow on the default white background.
    assert.deepEqual(lenientQrDesign({ fg: 'ffff00' }), DEFAULTS);
    // Inverted but far apart is kept.
    assert.deepEqual(lenientQrDesign({ fg: 'fff', bg: '000' }), {
      ...DEFAULTS,
      fg: '#ffffff',
      bg: '#000000',
    });
  });
});

describe('the API reading a QR design', () => {
  it('takes the defaults and png for an empty query, every good value otherwise', () => {
    assert.deepEqual(strictQrDesign({}), { ...DEFAULTS, format: 'png' });
    assert.deepEqual(
      strictQrDesign({ format: 'svg', size: 1024, margin: '16', fg: '1a237e', bg: '#FFF9C4', ecc: 'Q' }),
      { format: 'svg', size: 1024, margin: 16, fg: '#1a237e', bg: '#fff9c4', ecc: 'Q' },
    );
    assert.equal(strictQrDesign({ size: '64' }).size, 64);
    assert.equal(strictQrDesign({ margin: 0 }).margin, 0);
  });

  it('refuses every value it cannot take with 300', () => {
    for (const size of ['0', '-1', '1e9', '63', '1025', '99999', '12.5', 'abc', '', 0, -1, 1e9])
      refused({ size });
    for (const margin of ['-1', '17', '1.5', 'x', '']) refused({ margin });
    for (const colour of ['red', '#ggg', '#fff0', '#ffffff00', '12345', '']) {
      refused({ fg: colour });
      refused({ bg: colour });
    }
    for (const ecc of ['X', 'LM', '', '1']) refused({ ecc });
    for (const format of ['gif', 'jpeg', '']) refused({ format });
  });

  it('refuses repeated values and values that are not text', () => {
    refused({ size: ['256', '512'] });
    refused({ fg: ['#000', '#000'] });
    refused({ ecc: { level: 'H' } });
  });

  it('refuses colours under 3:1 contrast with 300, and takes inverted ones', () => {
    refused({ fg: '#777777', bg: '#888888' });
    refused({ fg: 'ffff00' });
    refused({ fg: '#ffffff' });
    assert.equal(strictQrDesign({ fg: '#fff', bg: '#000' }).fg, '#ffffff');
  });
});
