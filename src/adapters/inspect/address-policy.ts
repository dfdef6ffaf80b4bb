import ipaddr from 'ipaddr.js';

/**
 * Cloud metadata endpoints. Each already falls in a refused range; they are named so that a change to the
 * range table can never quietly re-open them.
 */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

/** The IPv4 address carried in the low 32 bits (mapped, translated, compatible, NAT64 forms). */
function low32(address: ipaddr.IPv6): ipaddr.IPv4 {
  const parts = address.parts;
  const high = parts[6] ?? 0;
  const low = parts[7] ?? 0;
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** The IPv4 address an IPv6 address stands for, when it is one of the forms that reach IPv4 hosts. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const zeroUpTo = (n: number) => p.slice(0, n).every((part) => part === 0);
  if (zeroUpTo(5) && p[5] === 0xffff) return low32(address); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeroUpTo(4) && p[4] === 0xffff && p[5] === 0) return low32(address); // ::ffff:0:a.b.c.d, translated
  if (zeroUpTo(6)) return low32(address); // ::a.b.c.d, IPv4-compatible (also :: and ::1)
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((part) => part === 0)) return low32(address);
  if (p[0] === 0x2002) {
    // 6to4 carries the IPv4 address in bits 16..47.
    const high = p[1] ?? 0;
    const low = p[2] ?? 0;
    return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  return undefined;
}

function ipv4Range(address: ipaddr.IPv4): string | undefined {
  const range = address.range();
  return range === 'unicast' ? undefined : range;
}

/**
 * Why an address is not a public one the inspector may connect to, e.g. "loopback" or "ipv4Mapped:private";
 * undefined for a public address. Anything that does not parse as an IP address is refused.
 */
export function nonPublicRange(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'invalid';
  }
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString())) {
    return 'cloudMetadata';
  }
  if (parsed.kind() === 'ipv4') return ipv4Range(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded !== undefined) {
    const inner = nonPublicRange(embedded.toString());
    return inner === undefined ? undefined : `${v6.range()}:${inner}`;
  }
  const range = v6.range();
  return range === 'unicast' ? undefined : range;
}

export function isPublicAddress(address: string): boolean {
  return nonPublicRange(address) === undefined;
}
