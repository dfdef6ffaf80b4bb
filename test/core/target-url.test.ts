import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTargetUrl, pointsAtOwnHost, urlHash } from '../../src/core/target-url.ts';

describe('parseTargetUrl', () => {
  it('lower-cases scheme and host, drops the default port, keeps path, query and fragment as sent', () => {
    assert.equal(
      parseTargetUrl('HTTPS://Example.COM:443/A/../b%2f?Q=1&x#Frag')?.normalized,
      'https://example.com/A/../b%2f?Q=1&x#Frag',
    );
    assert.equal(parseTargetUrl('http://example.com:80')?.normalized, 'http://example.com/');
    assert.equal(parseTargetUrl('http://example.com:8080?x=1')?.normalized, 'http://example.com:8080/?x=1');
    assert.equal(parseTargetUrl('http://example.com#top')?.normalized, 'http://example.com/#top');
  });

  it('trims surrounding space and keeps the URL as sent otherwise', () => {
    assert.equal(parseTargetUrl('  https://Example.com/Path \n')?.longUrl, 'https://Example.com/Path');
  });

  it('puts IDN hosts in ASCII for the normalized form', () => {
    assert.equal(parseTargetUrl('https://BÜCHER.example/')?.normalized, 'https://xn--bcher-kva.example/');
  });

  it('refuses what is not an absolute http(s) URL without credentials', () => {
    for (const raw of [
      'javascript:alert(1)',
      'ftp://example.com/',
      '/relative',
      '//example.com/',
      'example.com',
      'http:example.com',
      'https://user:pw@example.com/',
      'https://@example.com/',
      'http:///x',
      'https://exa mple.com/',
      'https://example.com/\u0000',
      'https://[::1/',
      `https://example.com/${'x'.repeat(2030)}`,
    ]) {
      assert.equal(parseTargetUrl(raw), undefined, raw);
    }
  });

  it('accepts exactly 2,048 characters and refuses 2,049', () => {
    const base = 'https://example.com/';
    assert.ok(parseTargetUrl(base + 'a'.repeat(2048 - base.length)));
    assert.equal(parseTargetUrl(base + 'a'.repeat(2049 - base.length)), undefined);
  });

  it('hashes equal normalized URLs equally', () => {
    const a = parseTargetUrl('HTTP://EXAMPLE.com:80');
    const b = parseTargetUrl('http://example.com/');
    assert.ok(a && b);
    assert.equal(urlHash(a.normalized), urlHash(b.normalized));
    assert.match(urlHash(a.normalized), /^[0-9a-f]{64}$/);
  });
});

describe('pointsAtOwnHost', () => {
  it('matches the same host and port as BASE_URL only', () => {
    const base = new URL('https://sn.ip');
    assert.equal(pointsAtOwnHost(new URL('https://SN.IP/abc'), base), true);
    assert.equal(pointsAtOwnHost(new URL('http://sn.ip./abc'), base), true);
    assert.equal(pointsAtOwnHost(new URL('https://sn.ip:8443/abc'), base), false);
    assert.equal(pointsAtOwnHost(new URL('https://www.sn.ip/abc'), base), false);
    assert.equal(pointsAtOwnHost(new URL('http://127.0.0.1:9000/'), new URL('http://127.0.0.1:8080')), false);
  });
});
