import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvLine } from '../../../src/core/csv.ts';
import {
  countryLabel,
  flagOf,
  languageLabel,
  valueLabel,
} from '../../../src/features/analytics/pages/stats-labels.ts';

/** How the stats page names recorded values, and how the CSV writes them. */

describe('stats labels', () => {
  it('builds a flag from the two letters as regional indicator symbols', () => {
    assert.equal(flagOf('DE'), '\u{1F1E9}\u{1F1EA}');
    assert.equal(flagOf('JP'), '🇯🇵');
  });

  it('names countries in English, ZZ and codes no region has without a flag', () => {
    assert.deepEqual(countryLabel('FR'), { mark: '🇫🇷', text: 'France', code: 'FR' });
    assert.deepEqual(countryLabel('ZZ'), { text: 'Unknown', code: 'ZZ' });
    assert.deepEqual(countryLabel('QM'), { text: 'QM' });
    assert.deepEqual(countryLabel('<b>'), { text: 'Unknown', code: '<b>' });
  });

  it('names languages, and says when none was sent', () => {
    assert.deepEqual(languageLabel('de'), { text: 'German', code: 'de' });
    assert.deepEqual(languageLabel('unknown'), { text: 'Not sent' });
    assert.deepEqual(languageLabel('123'), { text: '123' });
  });

  it('names the fixed values and the row that sums the rest', () => {
    assert.equal(valueLabel('referrer', 'direct', false).text, 'Direct (no referrer)');
    assert.equal(valueLabel('source', 'qr', false).text, 'QR code');
    assert.equal(valueLabel('bot', 'no-agent', false).text, 'No user agent');
    assert.equal(valueLabel('browser', 'Firefox', false).text, 'Firefox');
    assert.equal(valueLabel('device', 'other', true).text, 'All others');
  });
});

describe('CSV lines', () => {
  it('defuses formulas and quotes what needs quoting', () => {
    assert.equal(csvLine(['referrer', '=1+2', 3, '']), "referrer,'=1+2,3,\r\n");
    assert.equal(csvLine(['bot', '@evil', 1]), "bot,'@evil,1\r\n");
    assert.equal(csvLine(['-x', '+y', '\tz']), "'-x,'+y,'\tz\r\n");
    assert.equal(csvLine(['a,b', 'say "hi"', 'two\nlines']), '"a,b","say ""hi""","two\nlines"\r\n');
  });
});
