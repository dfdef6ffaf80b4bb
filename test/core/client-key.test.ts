import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientKey } from '../../src/core/client-key.ts';

describe('what a per-address limit counts by', () => {
  it('is an IPv4 address itself, and the /64 of an IPv6 address', () => {
    assert.equal(clientKey('192.0.2.7'), '192.0.2.7');
    assert.equal(clientKey('::ffff:192.0.2.7'), '192.0.2.7');
    assert.equal(clientKey('2001:db8:1:2::1'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
    assert.notEqual(clientKey('2001:db8:1:3::1'), clientKey('2001:db8:1:2::1'));
    assert.equal(clientKey('not an address'), 'not an address');
  });
});
