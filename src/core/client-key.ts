import ipaddr from 'ipaddr.js';

/**
 * What a per-address limit counts by (docs/adr/025): an IPv4 address, or the /64 an IPv6 address
 * is in — one subscriber's whole network, since a host given a /64 can use any of its 2^64
 * addresses. An IPv4 address written as IPv6 (::ffff:a.b.c.d) is that IPv4 address; anything that
 * does not parse is counted as itself.
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
