import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';
import { type CountryResponse, open, type Reader } from 'maxmind';
import type { CountryLookup } from '../../core/ports/geo.ts';

export { fixedCountries } from './fixed-countries.ts';

/**
 * The IP-to-country database shipped inside an npm package (docs/adr/017): CC0, built from the
 * regional registries' data, one file for IPv4 and IPv6. A newer package version is a fresher file.
 */
export const BUNDLED_COUNTRY_DATABASE =
  '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';

const COUNTRY_CODE = /^[A-Z]{2}$/;
const IPV4_MAPPED = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

/** Clients are found only in global unicast space; the IPv4-mapped form is looked up as IPv4. */
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

/** The special-purpose ranges (IANA's registries) inside that space: nobody's country. */
const NOT_PUBLIC = new BlockList();
for (const range of [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // shared address space (carrier-grade NAT)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local
  '172.16.0.0/12', // private
  '192.0.0.0/24', // protocol assignments
  '192.0.2.0/24', // documentation
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, broadcast
  '2001::/23', // protocol assignments (Teredo, benchmarking, ORCHID…)
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4
  '3fff::/20', // documentation
]) {
  const [network = '', prefix = ''] = range.split('/');
  NOT_PUBLIC.addSubnet(network, Number(prefix), network.includes(':') ? 'ipv6' : 'ipv4');
}

/**
 * The address to look up, or undefined when it has no country: not strictly an IP address (the
 * database reader itself would read "1.2.3" as 1.2.3.0), or not a public unicast one — private,
 * loopback, link-local, shared (CGNAT), documentation, multicast… The bundled data places some of
 * those (192.168.0.0/16, 203.0.113.0/24, 2001:db8::/32) in a country; they are nobody's. An
 * IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, as a dual-stack socket reports IPv4 clients) is looked
 * up as its IPv4 address. Node's own parser and range lists keep this well under a microsecond.
 */
function publicAddress(address: string): string | undefined {
  const family = isIP(address);
  // A zone (fe80::1%eth0) qualifies only link-local addresses, and the reader would misread it.
  if (family === 0 || address.includes('%')) return undefined;
  const ipv4 = family === 4 ? address : IPV4_MAPPED.exec(address)?.[1];
  if (ipv4 !== undefined) return isIP(ipv4) === 4 && !NOT_PUBLIC.check(ipv4, 'ipv4') ? ipv4 : undefined;
  return GLOBAL_UNICAST.check(address, 'ipv6') && !NOT_PUBLIC.check(address, 'ipv6') ? address : undefined;
}

/** The country a record names: `country_code` in this package's files, `country.iso_code` in GeoIP2-style ones. */
function countryIn(record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const { country_code: flat, country } = record as {
    country_code?: unknown;
    country?: { iso_code?: unknown };
  };
  const code = typeof flat === 'string' ? flat : country?.iso_code;
  if (typeof code !== 'string') return undefined;
  const upper = code.toUpperCase();
  // ZZ is the "unknown or unspecified country" some databases write.
  return COUNTRY_CODE.test(upper) && upper !== 'ZZ' ? upper : undefined;
}

/** Answers from a database already in memory; lookups are synchronous and never throw. */
export function countryLookupFrom(reader: Pick<Reader<CountryResponse>, 'get'>): CountryLookup {
  return {
    countryOf(address) {
      try {
        const ip = typeof address === 'string' ? publicAddress(address) : undefined;
        return ip === undefined ? undefined : countryIn(reader.get(ip));
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * Opens an MMDB country database (by default the bundled one) and reads it whole into memory, so
 * that every lookup after this is a synchronous walk of a buffer. Rejects when the file is missing
 * or is not an MMDB database: a service asked to know countries should not start without them.
 */
export async function openCountryLookup(path?: string): Promise<CountryLookup> {
  const file = path ?? createRequire(import.meta.url).resolve(BUNDLED_COUNTRY_DATABASE);
  const reader = await open<CountryResponse>(file);
  return countryLookupFrom(reader);
}
