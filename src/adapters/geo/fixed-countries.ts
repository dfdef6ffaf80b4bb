import type { CountryLookup } from '../../core/ports/geo.ts';

/**
 * A country lookup from a fixed table of addresses, for tests of the features that ask for one.
 * Any address may be placed (documentation ranges included); an IPv4-mapped form finds its IPv4 entry.
 */
export function fixedCountries(map: Record<string, string>): CountryLookup {
  const table = new Map(Object.entries(map).map(([address, country]) => [address, country.toUpperCase()]));
  return {
    countryOf(address) {
      const ipv4 = address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : undefined;
      return table.get(address) ?? (ipv4 === undefined ? undefined : table.get(ipv4));
    },
  };
}
