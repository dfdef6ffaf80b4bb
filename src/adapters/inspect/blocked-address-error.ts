/** A host resolved to (or is) an address the SSRF guard refuses. */
export class BlockedAddressError extends Error {
  readonly code = 'ERR_SNIP_BLOCKED_ADDRESS';
  readonly address: string;
  readonly range: string;

  constructor(address: string, range: string) {
    super(`non-public address ${address} (${range})`);
    this.name = 'BlockedAddressError';
    this.address = address;
    this.range = range;
  }
}
