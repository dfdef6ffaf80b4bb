import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { describe, it } from 'node:test';
import { fixedCountries } from '../../../src/adapters/geo/fixed-countries.ts';
import type { CountryLookup } from '../../../src/core/ports/geo.ts';
import { firstMatch, type LinkRule } from '../../../src/core/targeting.ts';
import { visitorFacts } from '../../../src/features/redirect/targeting-facts.ts';
import { countryFromHeaders } from '../../../src/http/visitor-country.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36';
const WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A country lookup that counts what it is asked. */
function spyCountries(map: Record<string, string> = {}): CountryLookup & { asked: string[] } {
  const fixed = fixedCountries(map);
  const asked: string[] = [];
  return {
    asked,
    countryOf(address) {
      asked.push(address);
      return fixed.countryOf(address);
    },
  };
}

/** Headers whose user agent counts each read of it. */
function countedHeaders(headers: IncomingHttpHeaders): { headers: IncomingHttpHeaders; reads: () => number } {
  let reads = 0;
  const counted = { ...headers };
  const userAgent = headers['user-agent'];
  Object.defineProperty(counted, 'user-agent', {
    enumerable: true,
    get: () => {
      reads++;
      return userAgent;
    },
  });
  return { headers: counted, reads: () => reads };
}

describe('visitorFacts', () => {
  it('asks nothing of the request until a rule asks', () => {
    const countries = spyCountries();
    const { headers, reads } = countedHeaders({ 'user-agent': IPHONE, 'accept-language': 'fr' });
    visitorFacts({ headers, ip: '193.0.6.139' }, countries);
    assert.deepEqual(countries.asked, []);
    assert.equal(reads(), 0);
  });

  it('neither reads the user agent nor looks up the address for rules that name only a language', () => {
    const countries = spyCountries({ '193.0.6.139': 'NL' });
    const { headers, reads } = countedHeaders({ 'user-agent': IPHONE, 'accept-language': 'de-AT, de;q=0.9' });
    const facts = visitorFacts({ headers, ip: '193.0.6.139' }, countries);
    const rules: LinkRule[] = [
      { if: { language: 'fr' }, url: 'https://example.com/fr' },
      { if: { language: 'de' }, url: 'https://example.com/de' },
    ];
    assert.equal(firstMatch(rules, facts)?.url, 'https://example.com/de');
    assert.deepEqual(countries.asked, []);
    assert.equal(reads(), 0);
  });

  it('computes each fact once per request however many rules ask', () => {
    const countries = spyCountries({ '193.0.6.139': 'NL' });
    const { headers, reads } = countedHeaders({ 'user-agent': ANDROID });
    const facts = visitorFacts({ headers, ip: '193.0.6.139' }, countries);
    const rules: LinkRule[] = [
      { if: { country: 'DE' }, url: 'https://example.com/1' },
      { if: { device: 'ios' }, url: 'https://example.com/2' },
      { if: { device: 'mobile', country: 'FR' }, url: 'https://example.com/3' },
      { if: { device: 'desktop' }, url: 'https://example.com/4' },
    ];
    assert.equal(firstMatch(rules, facts), undefined);
    assert.deepEqual(countries.asked, ['193.0.6.139']);
    assert.equal(reads(), 1);
  });

  it('remembers that the address has no country rather than asking again', () => {
    const countries = spyCountries();
    const facts = visitorFacts({ headers: {}, ip: '127.0.0.1' }, countries);
    assert.equal(facts.country(), undefined);
    assert.equal(facts.country(), undefined);
    assert.deepEqual(countries.asked, ['127.0.0.1']);
  });

  describe('with firstMatch', () => {
    const rules: LinkRule[] = [
      { if: { device: 'android', country: 'DE' }, url: 'https://example.com/android-de' },
      { if: { device: 'ios' }, url: 'https://example.com/app-store' },
      { if: { country: 'FR', language: 'fr' }, url: 'https://example.com/fr' },
      { if: { device: 'mobile' }, url: 'https://example.com/mobile' },
      { if: { language: 'nl' }, url: 'https://example.com/nl' },
    ];
    const countries = fixedCountries({ '203.0.113.7': 'DE', '198.51.100.9': 'FR' });
    const visitors: [who: string, headers: IncomingHttpHeaders, ip: string, url: string | undefined][] = [
      [
        'an Android phone in Germany',
        { 'user-agent': ANDROID },
        '203.0.113.7',
        'https://example.com/android-de',
      ],
      ['an Android phone in France', { 'user-agent': ANDROID }, '198.51.100.9', 'https://example.com/mobile'],
      ['an iPhone in Germany', { 'user-agent': IPHONE }, '203.0.113.7', 'https://example.com/app-store'],
      [
        'a French-speaking desktop in France',
        { 'user-agent': WINDOWS, 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' },
        '198.51.100.9',
        'https://example.com/fr',
      ],
      [
        'an English-speaking desktop in France',
        { 'user-agent': WINDOWS, 'accept-language': 'en-GB,fr;q=0.5' },
        '198.51.100.9',
        undefined,
      ],
      [
        'a Dutch-speaking desktop behind an IPv4-mapped address',
        { 'user-agent': WINDOWS, 'accept-language': 'nl-BE' },
        '::ffff:203.0.113.7',
        'https://example.com/nl',
      ],
      ['a visitor who sends no headers at all', {}, '127.0.0.1', undefined],
    ];
    for (const [who, headers, ip, url] of visitors) {
      it(`sends ${who} to ${url ?? "the link's own URL"}`, () => {
        assert.equal(firstMatch(rules, visitorFacts({ headers, ip }, countries))?.url, url);
      });
    }
  });

  describe('behind a trusted proxy', () => {
    it("takes the CDN's country header over the address, only when told to trust it", () => {
      const countries = spyCountries({ '203.0.113.7': 'DE' });
      const request = { headers: { 'cf-ipcountry': 'fr' }, ip: '203.0.113.7' };
      assert.equal(visitorFacts(request, countries, { trustCountryHeaders: true }).country(), 'FR');
      assert.deepEqual(countries.asked, []);
      assert.equal(visitorFacts(request, countries).country(), 'DE');
    });

    it('falls back to the address when the header is absent or names no country', () => {
      const countries = fixedCountries({ '203.0.113.7': 'DE' });
      for (const headers of [
        {},
        { 'cf-ipcountry': 'XX' },
        { 'cf-ipcountry': 'T1' },
        { 'cf-ipcountry': '' },
      ]) {
        const facts = visitorFacts({ headers, ip: '203.0.113.7' }, countries, { trustCountryHeaders: true });
        assert.equal(facts.country(), 'DE', JSON.stringify(headers));
      }
    });

    it('reads CloudFront-Viewer-Country as well', () => {
      assert.equal(countryFromHeaders({ 'cloudfront-viewer-country': 'JP' }), 'JP');
      assert.equal(countryFromHeaders({ 'cloudfront-viewer-country': 'Japan' }), undefined);
    });
  });
});
