import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvLine } from '../../../src/core/csv.ts';
import {
  countryLabel,
  languageLabel,
  valueLabel,
} from '../../../src/features/analytics/pages/stats-labels.ts';
import { flagAsset } from '../../../src/web/assets.ts';

/** How the stats page names recorded values, and how the CSV writes them. */

describe('stats labels', () => {
  it('finds the flag image of a country code, and none for a code without one', () => {
    assert.equal(flagAsset('DE'), '/assets/flags/de.svg');
    assert.equal(flagAsset('gb'), '/assets/flags/gb.svg');
    assert.equal(flagAsset('QM'), undefined);
    assert.equal(flagAsset('ZZ'), undefined);
    assert.equal(flagAsset('../x'), undefined);
  });

  it('names countries in English with their flag; ZZ, codes no region has and odd values without one', () => {
    assert.deepEqual(countryLabel('FR'), { text: 'France', flag: '/assets/flags/fr.svg' });
    assert.deepEqual(countryLabel('GB'), { text: 'United Kingdom', flag: '/assets/flags/gb.svg' });
    assert.deepEqual(countryLabel('ZZ'), { text: 'Unknown' });
    assert.deepEqual(countryLabel('QM'), { text: 'QM' });
    assert.deepEqual(countryLabel('<b>'), { text: 'Unknown' });
  });

  it('names languages, and says when none was sent', () => {
    assert.deepEqual(languageLabel('de'), { text: 'German' });
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
