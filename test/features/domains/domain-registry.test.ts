/**
 * The domains in memory (features/domains/domain-registry.ts): which domain a request's Host header
 * reaches, where each domain's short URLs start, and each workspace's chosen default domain.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Domain } from '../../../src/core/entities.ts';
import { DomainRegistry } from '../../../src/features/domains/domain-registry.ts';

const VERIFIED = new Date(Date.UTC(2024, 2, 1));
const DAY = 86_400_000;
/** The registry's clock: a day after every fixture domain was added. */
const NOW = VERIFIED.getTime() + DAY;

function domain(id: number, host: string, overrides: Partial<Domain> = {}): Domain {
  return {
    id,
    host,
    workspaceId: null,
    shared: true,
    verifiedAt: VERIFIED,
    verificationToken: `token-${id}`,
    https: true,
    rootRedirect: null,
    notFoundRedirect: null,
    createdAt: VERIFIED,
    ...overrides,
  };
}

/** The store's default row, as listDomains answers it (host ''). */
const DEFAULT_ROW = domain(0, '', { https: false, verifiedAt: new Date(0), verificationToken: '' });

function registry(baseUrl = 'https://sn.ip'): DomainRegistry {
  const made = new DomainRegistry(new URL(baseUrl), () => NOW);
  made.load(
    [
      DEFAULT_ROW,
      domain(3, 'go.acme.com', { workspaceId: 7, shared: false, notFoundRedirect: 'https://acme.com/404' }),
      domain(4, 'pending.example.org', { workspaceId: 7, shared: false, verifiedAt: null }),
      domain(5, 'plain.example.net', { https: false, rootRedirect: 'https://example.net/' }),
    ],
    [
      { workspaceId: 7, host: 'go.acme.com' },
      { workspaceId: 8, host: 'pending.example.org' },
      { workspaceId: 9, host: 'removed.example.com' },
    ],
  );
  return made;
}

describe('DomainRegistry', () => {
  describe('served', () => {
    it("serves the default domain for BASE_URL's host, with or without a port", () => {
      const domains = registry();
      const expected = { id: 0, keyPrefix: '', rootRedirect: null, notFoundRedirect: null };
      assert.deepEqual(domains.served('sn.ip'), expected);
      assert.deepEqual(domains.served('sn.ip:443'), expected);
      assert.deepEqual(domains.served('SN.IP.'), expected);
    });

    it('serves the default domain for a host of BASE_URL with a port of its own', () => {
      const domains = registry('http://links.example.com:8080/');
      assert.equal(domains.defaultHost, 'links.example.com:8080', 'its authority');
      assert.equal(domains.served('links.example.com:8080')?.id, 0);
      assert.equal(domains.served('links.example.com')?.id, 0);
    });

    it('serves the default domain to the server reached directly: an address, a single label, no Host', () => {
      const domains = registry();
      for (const header of [undefined, '', '127.0.0.1', '127.0.0.1:3000', '[::1]:8080', 'localhost:3000']) {
        assert.equal(domains.served(header)?.id, 0, String(header));
      }
    });

    it('serves a verified domain under its own key prefix and redirects', () => {
      const domains = registry();
      assert.deepEqual(domains.served('go.acme.com'), {
        id: 3,
        keyPrefix: '3/',
        rootRedirect: null,
        notFoundRedirect: 'https://acme.com/404',
      });
      assert.equal(domains.served('GO.ACME.COM.:8443')?.id, 3);
      assert.deepEqual(domains.served('plain.example.net')?.rootRedirect, 'https://example.net/');
    });

    it('serves neither an unverified domain nor an unknown host', () => {
      const domains = registry();
      assert.equal(domains.served('pending.example.org'), undefined);
      assert.equal(domains.served('unknown.example.com'), undefined);
      assert.equal(domains.served('unknown.example.com'), undefined, 'answered again from memory');
      assert.equal(domains.served('sn.ip.evil.example'), undefined);
      // Headers longer than any host are answered, never remembered.
      const long = `${'a'.repeat(5000)}.example`;
      assert.equal(domains.served(long), undefined);
      assert.equal(domains.served(long), undefined);
    });

    it("keeps the default domain's stored settings under BASE_URL's host", () => {
      const domains = new DomainRegistry(new URL('https://sn.ip'));
      domains.load([{ ...DEFAULT_ROW, rootRedirect: 'https://example.com/home' }]);
      assert.equal(domains.served('sn.ip')?.rootRedirect, 'https://example.com/home');
      assert.equal(domains.byId(0)?.host, 'sn.ip');
    });
  });

  describe('load', () => {
    it('replaces what was known, the memory of hosts included', () => {
      const domains = registry();
      assert.equal(domains.served('new.example.com'), undefined);
      assert.equal(domains.served('pending.example.org'), undefined);
      domains.load([
        DEFAULT_ROW,
        domain(4, 'pending.example.org', { verifiedAt: VERIFIED }),
        domain(6, 'new.example.com'),
      ]);
      assert.equal(domains.served('new.example.com')?.id, 6);
      assert.equal(domains.served('pending.example.org')?.id, 4, 'verified since');
      assert.equal(domains.served('go.acme.com'), undefined, 'removed since');
      assert.equal(domains.byHost('go.acme.com'), undefined);
      assert.equal(domains.chosenDefault(7), 0, 'the defaults are replaced too');
    });

    it('knows the default domain before anything is loaded', () => {
      const domains = new DomainRegistry(new URL('https://sn.ip/'));
      assert.equal(domains.served('sn.ip')?.id, 0);
      assert.equal(domains.served('go.acme.com'), undefined);
      assert.deepEqual(
        domains.all().map((each) => [each.id, each.host]),
        [[0, 'sn.ip']],
      );
    });
  });

  describe('origin', () => {
    it("prints the default domain's short URLs under BASE_URL, without its trailing slash", () => {
      assert.equal(registry().origin(0), 'https://sn.ip');
      assert.equal(registry('http://localhost:3000/').origin(0), 'http://localhost:3000');
      assert.equal(registry('https://example.com/s/').origin(0), 'https://example.com/s');
    });

    it("prints an added domain's under its host, with https or http as it is set", () => {
      const domains = registry();
      assert.equal(domains.origin(3), 'https://go.acme.com');
      assert.equal(domains.origin(5), 'http://plain.example.net');
      assert.equal(domains.origin(4), 'https://pending.example.org', 'verified or not');
      assert.equal(domains.origin(99), 'https://sn.ip', 'an unknown id: the default');
    });

    it('names the host of each domain', () => {
      const domains = registry();
      assert.equal(domains.hostOf(0), 'sn.ip');
      assert.equal(domains.hostOf(3), 'go.acme.com');
      assert.equal(domains.hostOf(99), 'sn.ip');
      assert.equal(domains.byHost('sn.ip')?.id, 0);
      assert.deepEqual(
        domains.all().map((each) => each.id),
        [0, 3, 4, 5],
      );
    });
  });

  describe('chosenDefault', () => {
    it("answers the verified domain a workspace chose, else the default domain's id", () => {
      const domains = registry();
      assert.equal(domains.chosenDefault(7), 3);
      assert.equal(domains.chosenDefault(8), 0, 'a claim is nobody’s default');
      assert.equal(domains.chosenDefault(9), 0, 'a host no longer known');
      assert.equal(domains.chosenDefault(10), 0, 'no choice');
    });
  });
});

describe('claims on a host (unverified domains)', () => {
  const claim = (id: number, workspaceId: number, createdAt = VERIFIED) =>
    domain(id, 'brand.example', { workspaceId, shared: false, verifiedAt: null, createdAt });
  let clock = NOW;
  const claimed = (...rows: Domain[]) => {
    const made = new DomainRegistry(new URL('https://sn.ip'), () => clock);
    made.load([DEFAULT_ROW, ...rows]);
    return made;
  };

  it('keeps several workspaces’ claims on one host, each seen by its own workspace, none served', () => {
    clock = NOW;
    const domains = claimed(claim(4, 7), claim(5, 8));
    assert.equal(domains.served('brand.example'), undefined);
    assert.equal(domains.byHost('brand.example'), undefined, 'no workspace named: only what is served');
    assert.equal(domains.byHost('brand.example', 7)?.id, 4);
    assert.equal(domains.byHost('brand.example', 8)?.id, 5);
    assert.equal(domains.byHost('brand.example', 9), undefined);
    assert.deepEqual(
      domains.claimsOf('brand.example').map((each) => each.id),
      [4, 5],
    );
    assert.throws(() => domains.idOf('brand.example'), { code: '317' });
  });

  it('answers the verified domain of a host before any claim, and serves it alone', () => {
    clock = NOW;
    const verified = domain(6, 'brand.example', { workspaceId: 8, shared: false });
    const domains = claimed(claim(4, 7), verified);
    assert.equal(domains.served('brand.example')?.id, 6);
    assert.equal(domains.byHost('brand.example', 7)?.id, 6);
    assert.equal(domains.idOf('brand.example'), 6);
  });

  it('forgets a claim 7 days after it was made, without a reload', () => {
    clock = VERIFIED.getTime() + 7 * DAY - 1;
    const domains = claimed(claim(4, 7), claim(5, 8, new Date(VERIFIED.getTime() + DAY)));
    assert.deepEqual(
      domains.all().map((each) => each.id),
      [0, 4, 5],
    );
    clock = VERIFIED.getTime() + 7 * DAY;
    assert.deepEqual(
      domains.all().map((each) => each.id),
      [0, 5],
    );
    assert.equal(domains.byHost('brand.example', 7), undefined);
    assert.equal(domains.byHost('brand.example', 8)?.id, 5);
  });
});
