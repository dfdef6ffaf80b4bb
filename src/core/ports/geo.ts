/**
 * The country of a client address (docs/api.md §8.3 targeting, §9.1 visits), answered offline and
 * synchronously: the redirect asks it on the hot path, so an adapter loads its data before serving.
 */
export interface CountryLookup {
  /**
   * ISO 3166-1 alpha-2, upper case; undefined for an address that is private, loopback, reserved,
   * unknown to the data, or not an IP address at all. Never throws.
   */
  countryOf(address: string): string | undefined;
  /** Releases what the lookup holds (a file watcher, a buffer), when it holds anything. */
  close?(): void;
}
