import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { countryLookupFrom, fixedCountries, openCountryLookup } from '../../../src/adapters/geo/country.ts';
import type { CountryLookup } from '../../../src/core/ports/geo.ts';

describe('the bundled IP-to-country database', () => {
  let countries: CountryLookup;
  before(async () => {
    countries = await openCountryLookup();
  });

  // Addresses of the regional registries and of long-established networks, none anycast: what the
  // bundled data says of them has not moved in years.
  const PUBLIC: [address: string, country: string][] = [
    ['193.0.6.139', 'NL'], // RIPE NCC, Amsterdam
    ['202.12.29.205', 'AU'], // APNIC, Brisbane
    ['200.3.14.10', 'UY'], // LACNIC, Montevideo
    ['130.149.1.1', 'DE'], // TU Berlin
    ['133.11.0.1', 'JP'], // University of Tokyo
    ['2001:67c:2e8::1', 'NL'], // RIPE NCC
    ['2001:dc0:2001:11::194', 'AU'], // APNIC
    ['2001:13c7:7001::1', 'UY'], // LACNIC
    ['2001:67C:2E8:0:0:0:0:1', 'NL'], // the same, written out in capitals
  ];
  for (const [address, country] of PUBLIC) {
    it(`places ${address} in ${country}`, () => {
      assert.equal(countries.countryOf(address), country);
    });
  }

  it('looks an IPv4-mapped IPv6 address up as its IPv4 address', () => {
    assert.equal(countries.countryOf('::ffff:193.0.6.139'), 'NL');
    assert.equal(countries.countryOf('::FFFF:130.149.1.1'), 'DE');
    assert.equal(countries.countryOf('::ffff:127.0.0.1'), undefined);
    assert.equal(countries.countryOf('::ffff:192.168.1.1'), undefined);
  });

  it('knows no country for loopback, private, shared, link-local, documentation or multicast addresses', () => {
    // The bundled data itself places some of these (192.168.0.0/16, 203.0.113.0/24, 2001:db8::/32).
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.5.4',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '192.0.2.1',
      '198.51.100.9',
      '203.0.113.7',
      '224.0.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      '2001:db8::1',
      '2002:c100:68b::1',
      '64:ff9b::c100:68b',
    ]) {
      assert.equal(countries.countryOf(address), undefined, address);
    }
  });

  it('answers undefined, never throws, for what is not an IP address', () => {
    // The database reader alone would place "1.2.3" and "01.02.03.04" (read as 1.2.3.0 and 1.2.3.4).
    for (const address of [
      '',
      'abc',
      '1.2.3',
      '1.2.3.4.5',
      '01.02.03.04',
      '999.1.1.1',
      ' 193.0.6.139',
      '193.0.6.139 ',
      '193.0.6.139:443',
      '[2001:67c:2e8::1]',
      '2001:67c:2e8::1%eth0',
      '::ffff:999.1.1.1',
      ':::',
      'x'.repeat(100_000),
    ]) {
      assert.equal(countries.countryOf(address), undefined, address.slice(0, 40));
    }
    for (const notText of [undefined, null, 42, {}]) {
      assert.equal(countries.countryOf(notText as unknown as string), undefined);
    }
  });
});

describe('countryLookupFrom', () => {
  const reading = (record: unknown) => countryLookupFrom({ get: () => record as never });

  it('reads the country of the bundled shape and of GeoIP2-style databases, upper case', () => {
    assert.equal(reading({ country_code: 'nl' }).countryOf('193.0.6.139'), 'NL');
    assert.equal(reading({ country: { iso_code: 'DE' } }).countryOf('193.0.6.139'), 'DE');
  });

  it('knows no country for a record without one, with an odd code, or with the unknown code ZZ', () => {
    for (const record of [
      null,
      {},
      { country_code: 'ZZ' },
      { country_code: 'EUR' },
      { country_code: 7 },
      'NL',
    ]) {
      assert.equal(reading(record).countryOf('193.0.6.139'), undefined, JSON.stringify(record));
    }
  });

  it('answers undefined when the reader fails', () => {
    const failing = countryLookupFrom({
      get: () => {
        throw new Error('corrupt database');
      },
    });
    assert.equal(failing.countryOf('193.0.6.139'), undefined);
  });
});

describe('openCountryLookup', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snip-geo-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a file that is missing or not an MMDB database', async () => {
    await assert.rejects(openCountryLookup(join(dir, 'missing.mmdb')));
    const notADatabase = join(dir, 'not-a-database.mmdb');
    writeFileSync(notADatabase, 'just text');
    await assert.rejects(openCountryLookup(notADatabase));
  });
});

describe('fixedCountries', () => {
  const countries = fixedCountries({ '203.0.113.7': 'de', '2001:db8::1': 'FR' });

  it('answers from its table, upper case, IPv4-mapped addresses included', () => {
    assert.equal(countries.countryOf('203.0.113.7'), 'DE');
    assert.equal(countries.countryOf('::ffff:203.0.113.7'), 'DE');
    assert.equal(countries.countryOf('2001:db8::1'), 'FR');
  });

  it('knows nothing else, not even the names every object has', () => {
    for (const address of ['203.0.113.8', '', 'constructor', '__proto__', 'toString']) {
      assert.equal(countries.countryOf(address), undefined, address);
    }
  });
});
