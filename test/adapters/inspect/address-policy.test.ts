import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPublicAddress, nonPublicRange } from '../../../src/adapters/inspect/address-policy.ts';

const REFUSED: Record<string, readonly string[]> = {
  'IPv4 loopback': ['127.0.0.1', '127.255.255.254'],
  'RFC 1918 private': ['10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1'],
  'link-local': ['169.254.0.1', 'fe80::1', 'febf:ffff::1'],
  'CGNAT 100.64/10': ['100.64.0.1', '100.127.255.254'],
  multicast: ['224.0.0.1', '239.255.255.250', 'ff02::1'],
  unspecified: ['0.0.0.0', '0.1.2.3', '::'],
  broadcast: ['255.255.255.255'],
  'reserved and documentation': ['192.0.2.1', '198.51.100.7', '203.0.113.9', '240.0.0.1', '2001:db8::1'],
  'IPv6 loopback': ['::1'],
  'unique-local fc00::/7': ['fc00::1', 'fd12:3456::1'],
  'cloud metadata': ['169.254.169.254', 'fd00:ec2::254', '100.100.100.200'],
  'IPv4-mapped non-public': [
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:7f00:1',
  ],
  'IPv4-translated non-public': ['::ffff:0:127.0.0.1', '::ffff:0:a00:1'],
  'IPv4-compatible non-public': ['::127.0.0.1', '::10.0.0.1', '::7f00:1'],
  'NAT64 64:ff9b::/96 of non-public': ['64:ff9b::127.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b::192.168.0.1'],
  'NAT64 local-use 64:ff9b:1::/48': ['64:ff9b:1::1'],
  '6to4 2002::/16 of non-public': ['2002:7f00:1::1', '2002:a00:1::', '2002:a9fe:a9fe::1'],
  Teredo: ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  'not an IP address': ['localhost', '', 'example.com', '1.2.3.4.5'],
};

describe('address policy', () => {
  for (const [range, addresses] of Object.entries(REFUSED)) {
    for (const address of addresses) {
      it(`refuses ${range}: ${address || '(empty)'}`, () => {
        assert.notEqual(nonPublicRange(address), undefined);
        assert.equal(isPublicAddress(address), false);
      });
    }
  }

  for (const address of [
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '2606:2800:220:1::',
    '2a00:1450:4001:82b::200e',
  ]) {
    it(`allows the public address ${address}`, () => {
      assert.equal(nonPublicRange(address), undefined);
      assert.equal(isPublicAddress(address), true);
    });
  }

  for (const address of ['::ffff:93.184.216.34', '64:ff9b::5db8:d822', '2002:5db8:d822::1']) {
    it(`allows an embedded form of a public IPv4 address: ${address}`, () => {
      assert.equal(isPublicAddress(address), true);
    });
  }

  it('names the range it refused, including the embedded one', () => {
    assert.equal(nonPublicRange('10.1.2.3'), 'private');
    assert.equal(nonPublicRange('169.254.169.254'), 'cloudMetadata');
    assert.equal(nonPublicRange('::ffff:127.0.0.1'), 'ipv4Mapped:loopback');
  });
});
