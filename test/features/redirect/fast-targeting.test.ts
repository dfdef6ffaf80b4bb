import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import type { Link } from '../../../src/core/entities.ts';
import { fastRedirect } from '../../../src/features/redirect/fast-path.ts';
import { fastTargeting } from '../../../src/features/redirect/fast-targeting.ts';
import { type CachedLink, LinkCache } from '../../../src/features/redirect/link-cache.ts';
import { guardOf } from '../../../src/features/redirect/link-guard.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

const NOW = Date.UTC(2026, 10, 23, 12);

function link(fields: Partial<Link>): CachedLink {
  const full = {
    id: 7,
    expiresAt: null,
    maxClicks: null,
    limitUsed: 0,
    clicks: 0,
    passwordHash: null,
    rules: [],
    ...fields,
  } as unknown as Link;
  return {
    id: 7,
    workspaceId: 1,
    location: 'https://example.com/home',
    guard: guardOf(full),
    hosts: ['example.com'],
  };
}

function request(userAgent: string, address = '203.0.113.7', url = '/Abc1234'): IncomingMessage {
  return {
    method: 'GET',
    url,
    headers: { 'user-agent': userAgent, 'accept-language': 'fr-CA, en;q=0.5' },
    socket: { remoteAddress: address },
  } as unknown as IncomingMessage;
}

const RULES = [
  { if: { device: 'ios' as const }, url: 'https://example.com/ios' },
  { if: { country: 'DE' }, url: 'https://example.com/de' },
  { if: { language: 'fr' }, url: 'https://example.com/fr' },
];

describe('guarded links on the hot path', () => {
  const countries = { countryOf: (address: string) => (address === '203.0.113.7' ? 'DE' : undefined) };
  const target = fastTargeting({ now: () => NOW, countries, socketIsClient: true });

  it('answers targeting and a future expiry itself, first matching rule first', () => {
    const ruled = link({ rules: RULES });
    assert.equal(target(ruled, request(IPHONE)), 'https://example.com/ios');
    assert.equal(target(ruled, request(DESKTOP)), 'https://example.com/de');
    assert.equal(target(ruled, request(DESKTOP, '198.51.100.1')), 'https://example.com/fr');
    const expiring = link({ expiresAt: new Date(NOW + 1000) });
    assert.equal(target(expiring, request(DESKTOP)), 'https://example.com/home');
  });

  it('leaves the expired, the password, the visit limit and proxied countries to the route', () => {
    assert.equal(target(link({ expiresAt: new Date(NOW) }), request(DESKTOP)), undefined);
    assert.equal(target(link({ passwordHash: 'scrypt$…' }), request(DESKTOP)), undefined);
    assert.equal(target(link({ maxClicks: 5 }), request(DESKTOP)), undefined);
    const proxied = fastTargeting({ now: () => NOW, countries, socketIsClient: false });
    assert.equal(proxied(link({ rules: RULES }), request(DESKTOP)), undefined);
    const noCountry = link({ rules: [RULES[0], RULES[2]] as Link['rules'] });
    assert.equal(proxied(noCountry, request(DESKTOP)), 'https://example.com/fr');
  });

  it('writes the chosen target and counts the visit, or leaves the request alone', () => {
    const links = new Map([
      ['Abc1234', link({ rules: RULES })],
      ['Locked1', link({ passwordHash: 'scrypt$…' })],
    ]);
    const cache = { peek: (code: string) => links.get(code) } as unknown as LinkCache;
    const counted: string[] = [];
    const fast = fastRedirect(
      () => ({ id: 0, keyPrefix: '' }),
      cache,
      (_link, method) => {
        counted.push(method);
        return undefined;
      },
      302,
      [],
      target,
    );
    const written: unknown[] = [];
    const res = {
      writeHead: (...args: unknown[]) => written.push(args),
      end: () => {},
    } as unknown as ServerResponse;
    assert.equal(fast(request(IPHONE), res), true);
    assert.deepEqual((written[0] as [number, string[]])[1].slice(0, 2), [
      'location',
      'https://example.com/ios',
    ]);
    assert.equal(fast(request(IPHONE, '203.0.113.7', '/Locked1'), res), false);
    assert.deepEqual(counted, ['GET']);
    assert.equal(written.length, 1);
  });
});

describe('cold codes on an embedded store', () => {
  const plain: CachedLink = {
    id: 9,
    workspaceId: 1,
    location: 'https://example.com/cold',
    hosts: ['example.com'],
  };
  const response = (written: unknown[]) =>
    ({ writeHead: (...args: unknown[]) => written.push(args), end: () => {} }) as unknown as ServerResponse;

  it('answers a code found at once, remembers it, and leaves unknown codes and failures to the route', () => {
    const cache = new LinkCache(async () => undefined, { max: 10, ttlMs: 60_000, missTtlMs: 5000 });
    const asked: string[] = [];
    const lookupNow = (_domainId: number, code: string) => {
      asked.push(code);
      if (code === 'Broken1') throw new Error('disk I/O error');
      return code === 'Cold123' ? plain : undefined;
    };
    const counted: string[] = [];
    const fast = fastRedirect(
      () => ({ id: 0, keyPrefix: '' }),
      cache,
      (_link, method) => {
        counted.push(method);
        return undefined;
      },
      302,
      [],
      undefined,
      lookupNow,
    );
    const written: unknown[] = [];
    assert.equal(fast(request(DESKTOP, '203.0.113.7', '/Cold123'), response(written)), true);
    assert.deepEqual((written[0] as [number, string[]])[1].slice(0, 2), [
      'location',
      'https://example.com/cold',
    ]);
    assert.deepEqual(cache.peek('Cold123'), plain);
    assert.equal(fast(request(DESKTOP, '203.0.113.7', '/Cold123'), response(written)), true);
    assert.deepEqual(asked, ['Cold123'], 'the second click is a cache hit');
    assert.equal(fast(request(DESKTOP, '203.0.113.7', '/Nobody1'), response(written)), false);
    assert.equal(cache.peek('Nobody1'), null, 'an unknown code is remembered as unknown for the route');
    assert.equal(fast(request(DESKTOP, '203.0.113.7', '/Broken1'), response(written)), false);
    assert.equal(cache.peek('Broken1'), undefined, 'a failed look-up is not remembered');
    assert.deepEqual(counted, ['GET', 'GET']);
  });
});
