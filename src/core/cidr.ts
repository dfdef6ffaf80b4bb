import { isIP } from 'node:net';

/** A network as address/prefix (TRACKING_EXCLUDE). */
export interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** "1.2.3.0/24", "2001:db8::/32", or a bare address (its own /32 or /128); undefined when it is none. */
export function parseCidr(part: string): Cidr | undefined {
  const [address = '', prefixText, extra] = part.split('/');
  const version = isIP(address);
  const max = version === 6 ? 128 : 32;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (version === 0 || extra !== undefined || !/^\d{1,3}$/.test(prefixText ?? '0') || prefix > max) {
    return undefined;
  }
  return { address, prefix, family: version === 6 ? 'ipv6' : 'ipv4' };
}
