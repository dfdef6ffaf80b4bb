/**
 * Host names of domains (docs/api.md §12, core/domain-host.ts): what may be added as a domain, in
 * its stored ASCII form, and what a request's Host header names.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  displayHost,
  domainHost,
  HOST_MAX_LENGTH,
  hostOfHeader,
  typedDomainHost,
} from '../../src/core/domain-host.ts';

const accepted = (input: string) => {
  const check = domainHost(input);
  assert.ok(check.ok, `${input}: ${check.ok ? '' : check.reason}`);
  return check.host;
};
const refused = (input: string) => {
  const check = domainHost(input);
  assert.equal(check.ok, false, `${input} is refused`);
  return check.ok ? undefined : check.reason;
};

/** `labels` labels of `size` letters joined by dots, then ".com". */
const longHost = (labels: number, size: number) => `${Array(labels).fill('a'.repeat(size)).join('.')}.com`;

describe('domainHost', () => {
  it('keeps a plain host name as it is', () => {
    assert.equal(accepted('go.acme.com'), 'go.acme.com');
    assert.equal(accepted('a-b.c-d.example'), 'a-b.c-d.example');
    assert.equal(accepted('links2.example.co.uk'), 'links2.example.co.uk');
  });

  it('stores upper case in lower case, without the trailing dot or surrounding blanks', () => {
    assert.equal(accepted('Go.Acme.COM'), 'go.acme.com');
    assert.equal(accepted('go.acme.com.'), 'go.acme.com');
    assert.equal(accepted('GO.ACME.COM.'), 'go.acme.com');
    assert.equal(accepted('  go.acme.com  '), 'go.acme.com');
  });

  it('stores an internationalized name in punycode', () => {
    assert.equal(accepted('Bücher.Example'), 'xn--bcher-kva.example');
    assert.equal(accepted('BÜCHER.example'), 'xn--bcher-kva.example');
    assert.equal(accepted('xn--bcher-kva.example'), 'xn--bcher-kva.example', 'already ASCII');
    assert.equal(accepted('bücher.example.'), 'xn--bcher-kva.example');
  });

  it('refuses a port', () => {
    assert.equal(refused('go.acme.com:8080'), 'port');
    assert.equal(refused('go.acme.com:443'), 'port');
    assert.equal(refused('go.acme.com:'), 'port');
  });

  it('refuses IPv4 and IPv6 literals', () => {
    assert.equal(refused('127.0.0.1'), 'ip-literal');
    assert.equal(refused('203.0.113.7'), 'ip-literal');
    assert.equal(refused('::1'), 'ip-literal');
    assert.equal(refused('2001:db8::1'), 'ip-literal');
    assert.equal(refused('[::1]'), 'ip-literal');
    assert.equal(refused('[2001:db8::1]'), 'ip-literal');
    // An address with a port is refused either way.
    assert.ok(refused('203.0.113.7:80'));
    assert.ok(refused('[2001:db8::1]:443'));
  });

  it('refuses a wildcard', () => {
    assert.equal(refused('*.acme.com'), 'wildcard');
    assert.equal(refused('go.*.com'), 'wildcard');
    assert.equal(refused('*'), 'wildcard');
  });

  it('refuses a single label', () => {
    assert.equal(refused('localhost'), 'single-label');
    assert.equal(refused('acme'), 'single-label');
    assert.equal(refused('acme.'), 'single-label');
  });

  it('refuses an empty name', () => {
    assert.equal(refused(''), 'malformed');
    assert.equal(refused('   '), 'malformed');
    assert.equal(refused('.'), 'malformed');
  });

  it('refuses underscores, blanks and misplaced hyphens or dots', () => {
    for (const input of [
      'a_b.example.com',
      '_snip-challenge.acme.com',
      'go acme.com',
      '-go.acme.com',
      'go-.acme.com',
      'go..acme.com',
      '.acme.com',
      'acme.com..',
      'http://go.acme.com',
      'ada@go.acme.com',
    ]) {
      assert.equal(refused(input), 'malformed', input);
    }
  });

  it('takes labels up to 63 characters and hosts up to 253, refuses longer', () => {
    const label63 = `${'a'.repeat(63)}.com`;
    assert.equal(accepted(label63), label63);
    assert.equal(refused(`${'a'.repeat(64)}.com`), 'malformed');
    const longest = longHost(4, 61); // 4 × 62 + 3 = 251 characters
    assert.ok(longest.length <= HOST_MAX_LENGTH);
    assert.equal(accepted(longest), longest);
    const tooLong = longHost(5, 50); // 5 × 51 + 3 = 258 characters
    assert.ok(tooLong.length > HOST_MAX_LENGTH);
    assert.equal(refused(tooLong), 'malformed');
  });

  it('refuses 300-character hosts, of one label or of many', () => {
    assert.equal(refused('x'.repeat(300)), 'malformed');
    const dotted = `${'abcdefghi.'.repeat(29)}com.example`;
    assert.ok(dotted.length >= 300);
    assert.equal(refused(dotted), 'malformed');
    assert.equal(refused(`${'ü'.repeat(300)}.example`), 'malformed');
    assert.equal(refused(`${'a.'.repeat(5000)}com`), 'malformed', 'a very long input is cut short');
  });

  it('refuses a name with a path, a query, a fragment, an escape or user info', () => {
    // node:url would read these as the end of a host and keep only what comes before.
    const inputs = ['evil.example/go.acme.com', 'go.acme.com/path', 'go.acme.com?x', 'go.acme.com#x'];
    for (const input of [...inputs, 'go.acme.com\\x', 'go.acme.com%41', 'user@go.acme.com', 'go acme.com']) {
      assert.equal(refused(input), 'malformed', input);
    }
  });
});

describe('typedDomainHost', () => {
  const typed = (input: string) => {
    const check = typedDomainHost(input);
    return check.ok ? check.host : `refused: ${check.reason}`;
  };

  it('takes a host pasted as a URL: an http(s) scheme and one trailing slash are dropped', () => {
    for (const input of [
      'https://go.acme.com',
      'https://go.acme.com/',
      'HTTP://Go.Acme.COM/',
      'http://go.acme.com.',
      'go.acme.com/',
      ' https://go.acme.com/ ',
    ]) {
      assert.equal(typed(input), 'go.acme.com', input);
    }
    assert.equal(typed('https://bücher.example/'), 'xn--bcher-kva.example');
    assert.equal(typed('go.acme.com'), 'go.acme.com');
  });

  it('still refuses what is more than a host: a path, a query, user info, a port, another scheme', () => {
    assert.equal(typed('https://go.acme.com/path'), 'refused: malformed');
    assert.equal(typed('https://go.acme.com//'), 'refused: malformed');
    assert.equal(typed('go.acme.com//'), 'refused: malformed');
    assert.equal(typed('https://go.acme.com/?x=1'), 'refused: malformed');
    assert.equal(typed('https://go.acme.com#top'), 'refused: malformed');
    assert.equal(typed('https://ada@go.acme.com/'), 'refused: malformed');
    assert.equal(typed('https://go.acme.com:8443/'), 'refused: port');
    assert.equal(typed('ftp://go.acme.com'), 'refused: malformed');
    assert.equal(typed('https://'), 'refused: malformed');
    assert.equal(typed('https://*.acme.com/'), 'refused: wildcard');
    assert.equal(typed('/'), 'refused: malformed');
  });
});

describe('displayHost', () => {
  it('shows an internationalized host in Unicode, any other as it is stored', () => {
    assert.equal(displayHost('xn--bcher-kva.example'), 'bücher.example');
    assert.equal(displayHost('go.xn--bcher-kva.example'), 'go.bücher.example');
    assert.equal(displayHost('go.acme.com'), 'go.acme.com');
    assert.equal(displayHost('xn--zz.example'), 'xn--zz.example', 'what does not decode stays');
  });
});

describe('hostOfHeader', () => {
  it('names the host without its port', () => {
    assert.deepEqual(hostOfHeader('go.acme.com:8080'), { direct: false, host: 'go.acme.com' });
    assert.deepEqual(hostOfHeader('go.acme.com'), { direct: false, host: 'go.acme.com' });
  });

  it('lowers the case and drops the trailing dot', () => {
    assert.deepEqual(hostOfHeader('GO.Acme.com.'), { direct: false, host: 'go.acme.com' });
    assert.deepEqual(hostOfHeader('GO.Acme.com.:443'), { direct: false, host: 'go.acme.com' });
  });

  it('names an internationalized host in punycode', () => {
    assert.deepEqual(hostOfHeader('Bücher.Example:80'), { direct: false, host: 'xn--bcher-kva.example' });
  });

  it('is the server reached directly for an address, a single label or no header', () => {
    for (const header of [
      undefined,
      '',
      '[::1]:8080',
      '[::1]',
      '[2001:db8::1]',
      '127.0.0.1',
      '127.0.0.1:3000',
      'localhost:3000',
      'localhost',
    ]) {
      assert.deepEqual(hostOfHeader(header), { direct: true }, String(header));
    }
  });
});
