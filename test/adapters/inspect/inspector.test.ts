import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nonPublicRange } from '../../../src/adapters/inspect/address-policy.ts';
import { createInspector, createInspectorWithAddressCheck } from '../../../src/adapters/inspect/inspector.ts';
import type { ResolvedAddress, Resolver } from '../../../src/adapters/inspect/types.ts';
import type { InspectOutcome, Inspector } from '../../../src/core/ports/inspector.ts';
import { closedPort } from '../../fixtures/closed-port.ts';
import { FIXTURE_TITLES, startTargetServer, type TargetServer } from '../../fixtures/target-server.ts';

let target: TargetServer;

before(async () => {
  target = await startTargetServer();
});
after(async () => {
  await target.close();
});

/** A fake DNS that answers from a table and records every question. */
function fakeDns(table: Record<string, readonly string[]>) {
  const asked: string[] = [];
  const resolve: Resolver = async (hostname) => {
    asked.push(hostname);
    return (table[hostname] ?? []).map(
      (address): ResolvedAddress => ({
        address,
        family: address.includes(':') ? 6 : 4,
      }),
    );
  };
  return { resolve, asked };
}

function codeOf(outcome: InspectOutcome): string {
  return outcome.ok ? 'ok' : outcome.code;
}

function titleOf(outcome: InspectOutcome): string {
  assert.ok(outcome.ok, `expected ok, got ${JSON.stringify(outcome)}`);
  return outcome.title;
}

/** Runs `inspect` and reports how many TCP connections and requests reached the fixture meanwhile. */
/** Refused by the address guard, and the reason a client reads names no address. */
function assertBlocked(outcome: InspectOutcome, address?: string): void {
  assert.ok(!outcome.ok, JSON.stringify(outcome));
  assert.equal(outcome.code, '306');
  assert.equal(outcome.cause, 'blocked', JSON.stringify(outcome));
  if (address !== undefined) assert.ok(!outcome.reason.includes(address), outcome.reason);
  assert.doesNotMatch(outcome.reason, /\d+\.\d+\.\d+\.\d+|::/);
}

async function inspectCounting(inspector: Inspector, url: string) {
  const connectionsBefore = target.connections();
  const requestsBefore = target.requests().length;
  const outcome = await inspector.inspect(new URL(url));
  return {
    outcome,
    connections: target.connections() - connectionsBefore,
    requests: target.requests().slice(requestsBefore),
  };
}

describe('inspector with private targets allowed', () => {
  let inspector: Inspector;
  before(() => {
    inspector = createInspector({ allowPrivate: true });
  });
  after(() => inspector.close());

  it('returns the title, final URL and status of a normal page', async () => {
    assert.deepEqual(await inspector.inspect(new URL(target.url('/title'))), {
      ok: true,
      title: FIXTURE_TITLES.plain,
      finalUrl: target.url('/title'),
      status: 200,
    });
  });

  it('decodes a windows-1251 title named by the Content-Type header', async () => {
    assert.equal(
      titleOf(await inspector.inspect(new URL(target.url('/windows-1251')))),
      FIXTURE_TITLES.windows1251,
    );
  });

  it('decodes a Shift_JIS title declared only by <meta charset>', async () => {
    assert.equal(
      titleOf(await inspector.inspect(new URL(target.url('/shift-jis')))),
      FIXTURE_TITLES.shiftJis,
    );
  });

  it('returns an escaped markup title as plain text, once decoded', async () => {
    assert.equal(titleOf(await inspector.inspect(new URL(target.url('/xss-title')))), FIXTURE_TITLES.xss);
  });

  it('falls back to og:title', async () => {
    assert.equal(
      titleOf(await inspector.inspect(new URL(target.url('/og-title')))),
      FIXTURE_TITLES.openGraph,
    );
  });

  it('sniffs a page served without Content-Type', async () => {
    assert.equal(
      titleOf(await inspector.inspect(new URL(target.url('/no-content-type')))),
      FIXTURE_TITLES.plain,
    );
  });

  it('passes a non-HTML 200 with an empty title', async () => {
    assert.equal(titleOf(await inspector.inspect(new URL(target.url('/json')))), '');
  });

  it('reads the title at the top of a 10 MB page', async () => {
    assert.equal(titleOf(await inspector.inspect(new URL(target.url('/large')))), FIXTURE_TITLES.large);
  });

  const codes: Array<[string, string]> = [
    ['/modsecurity-406', '308'],
    ['/modsecurity-403', '308'],
    ['/noyb', '308'],
    ['/cloudflare-challenge', '309'],
    ['/cloudflare-mitigated', '309'],
    ['/cloudflare-origin-403', '306'],
    ['/behind-cloudflare', 'ok'],
    ['/missing', '307'],
    ['/error', '306'],
    ['/empty', '311'],
    ['/chunked-empty', 'ok'],
    ['/redirect-without-location', '306'],
  ];
  for (const [path, code] of codes) {
    it(`classifies ${path} as ${code}`, async () => {
      assert.equal(codeOf(await inspector.inspect(new URL(target.url(path)))), code);
    });
  }

  it('follows five relative redirects to the final page', async () => {
    const { outcome, requests } = await inspectCounting(inspector, target.url('/redirect/5'));
    assert.deepEqual(outcome, {
      ok: true,
      title: FIXTURE_TITLES.plain,
      finalUrl: target.url('/redirect/0'),
      status: 200,
    });
    assert.equal(requests.length, 6);
  });

  it('refuses a sixth redirect with 306 without fetching it', async () => {
    const { outcome, requests } = await inspectCounting(inspector, target.url('/redirect/6'));
    assert.equal(codeOf(outcome), '306');
    assert.deepEqual(requests, [
      '/redirect/6',
      '/redirect/5',
      '/redirect/4',
      '/redirect/3',
      '/redirect/2',
      '/redirect/1',
    ]);
  });

  it('stops a redirect loop with 306 as soon as a hop repeats', async () => {
    const { outcome, requests } = await inspectCounting(inspector, target.url('/loop-a'));
    assert.equal(codeOf(outcome), '306');
    assert.deepEqual(requests, ['/loop-a', '/loop-b']);
  });

  it('follows an absolute redirect to another URL', async () => {
    const to = encodeURIComponent(target.url('/title'));
    const outcome = await inspector.inspect(new URL(target.url(`/redirect-to?url=${to}`)));
    assert.equal(titleOf(outcome), FIXTURE_TITLES.plain);
  });

  for (const location of [
    'javascript:alert(1)',
    'ftp://127.0.0.1/file',
    'file:///etc/passwd',
    'data:text/html,x',
  ]) {
    it(`refuses a redirect to ${location.split(':')[0]}: with 306`, async () => {
      const url = target.url(`/redirect-to?url=${encodeURIComponent(location)}`);
      assert.equal(codeOf(await inspector.inspect(new URL(url))), '306');
    });
  }

  it('answers 306 for a refused connection', async () => {
    const port = await closedPort();
    assert.equal(codeOf(await inspector.inspect(new URL(`http://127.0.0.1:${port}/`))), '306');
  });

  it('answers 306 when the system resolver cannot find an .invalid host', async () => {
    const outcome = await inspector.inspect(new URL('http://no-such-host.invalid/'));
    assert.equal(codeOf(outcome), '306');
  });

  it('answers 306 when the resolver finds no address', async () => {
    const dns = fakeDns({});
    const empty = createInspector({ allowPrivate: true, resolve: dns.resolve });
    try {
      assert.equal(codeOf(await empty.inspect(new URL('http://nowhere.test/'))), '306');
    } finally {
      await empty.close();
    }
  });

  it('connects to the address the injected resolver returned', async () => {
    const dns = fakeDns({ 'pinned.test': ['127.0.0.1'] });
    const pinned = createInspector({ allowPrivate: true, resolve: dns.resolve });
    try {
      const outcome = await pinned.inspect(new URL(`http://pinned.test:${target.port}/title`));
      assert.equal(titleOf(outcome), FIXTURE_TITLES.plain);
      assert.deepEqual(dns.asked, ['pinned.test']);
    } finally {
      await pinned.close();
    }
  });
});

describe('inspector deadline and read cap', () => {
  let inspector: Inspector;
  // The cap's cases get a deadline a loaded machine cannot reach: what they check is the cap.
  let capped: Inspector;
  before(() => {
    inspector = createInspector({ allowPrivate: true, timeoutMs: 500, maxBodyBytes: 64 * 1024 });
    capped = createInspector({ allowPrivate: true, timeoutMs: 30_000, maxBodyBytes: 64 * 1024 });
  });
  after(() => Promise.all([inspector.close(), capped.close()]));

  it('answers 306 when the server never answers', async () => {
    assert.equal(codeOf(await inspector.inspect(new URL(target.url('/hang')))), '306');
  });

  it('answers 306 when the headers come after the deadline', async () => {
    assert.equal(codeOf(await inspector.inspect(new URL(target.url('/slow-headers')))), '306');
  });

  it('answers 306 when the resolver never answers', async () => {
    const stuck = createInspector({
      allowPrivate: true,
      timeoutMs: 300,
      resolve: () => new Promise(() => {}),
    });
    try {
      assert.equal(codeOf(await stuck.inspect(new URL('http://stuck.test/'))), '306');
    } finally {
      await stuck.close();
    }
  });

  it('reads an endless body only up to the cap, passes it, and lets the server stop writing', async () => {
    const outcome = await capped.inspect(new URL(target.url('/endless')));
    assert.equal(titleOf(outcome), '');
    await target.endlessBodiesStopped();
  });

  it('stops reading an endless body once the title has been seen', async () => {
    const outcome = await capped.inspect(new URL(target.url('/endless-titled')));
    assert.equal(titleOf(outcome), FIXTURE_TITLES.endless);
    await target.endlessBodiesStopped();
  });
});

describe('inspector with private targets refused', () => {
  let inspector: Inspector;
  const dns = fakeDns({
    'private.test': ['10.0.0.1'],
    'metadata.test': ['169.254.169.254'],
    'mapped-loopback.test': ['::ffff:127.0.0.1'],
    'loopback.test': ['127.0.0.1'],
    // The public address comes second so that a guard checking only the first answer still never dials it;
    // sneaky.test below proves that every answer is checked.
    'mixed.test': ['169.254.169.254', '93.184.216.34'],
  });
  before(() => {
    inspector = createInspector({ allowPrivate: false, resolve: dns.resolve });
  });
  after(() => inspector.close());

  const refusedHosts: Array<[string, string]> = [
    ['private.test', '10.0.0.1'],
    ['metadata.test', '169.254.169.254'],
    ['mapped-loopback.test', '::ffff:127.0.0.1'],
    ['loopback.test', '127.0.0.1'],
  ];
  for (const [host, address] of refusedHosts) {
    it(`refuses a host that resolves to ${address} before connecting`, async () => {
      const { outcome, connections } = await inspectCounting(
        inspector,
        `http://${host}:${target.port}/title`,
      );
      assert.equal(codeOf(outcome), '306');
      assertBlocked(outcome, address);
      assert.equal(connections, 0);
    });
  }

  it('refuses a host when any one of its addresses is non-public', async () => {
    const { outcome, connections } = await inspectCounting(
      inspector,
      `http://mixed.test:${target.port}/title`,
    );
    assert.equal(codeOf(outcome), '306');
    assertBlocked(outcome, '169.254.169.254');
    assert.equal(connections, 0);
  });

  for (const host of [
    '127.0.0.1',
    '[::ffff:127.0.0.1]',
    '2130706433',
    '0x7f.1',
    '[::1]',
    '[fe80::1]',
    '[::]',
  ]) {
    it(`refuses the IP literal ${host} before connecting`, async () => {
      const asked = dns.asked.length;
      const { outcome, connections } = await inspectCounting(
        inspector,
        `http://${host}:${target.port}/title`,
      );
      assert.equal(codeOf(outcome), '306');
      assertBlocked(outcome, host.replace(/^\[|\]$/g, ''));
      assert.equal(connections, 0);
      assert.equal(dns.asked.length, asked);
    });
  }
});

describe('redirects with the guard on', () => {
  // 127.0.0.1 stands in for a public host here, since tests may not reach a real one.
  const standInCheck = (address: string) => (address === '127.0.0.1' ? undefined : nonPublicRange(address));
  const dns = fakeDns({ 'sneaky.test': ['127.0.0.1', '169.254.169.254'] });
  let inspector: Inspector;
  before(() => {
    inspector = createInspectorWithAddressCheck({ allowPrivate: false, resolve: dns.resolve }, standInCheck);
  });
  after(() => inspector.close());

  it('reaches the stand-in public host', async () => {
    assert.equal(titleOf(await inspector.inspect(new URL(target.url('/title')))), FIXTURE_TITLES.plain);
  });

  for (const next of ['http://[::ffff:127.0.0.1]:PORT/title', 'http://sneaky.test:PORT/title']) {
    it(`refuses a redirect hop to ${next.replace(':PORT', '')} before connecting to it`, async () => {
      const location = encodeURIComponent(next.replace('PORT', String(target.port)));
      const { outcome, requests } = await inspectCounting(
        inspector,
        target.url(`/redirect-to?url=${location}`),
      );
      assert.equal(codeOf(outcome), '306');
      assertBlocked(outcome);
      // Had the hop been let through, it would have reached this same fixture as a second request.
      assert.deepEqual(requests, [`/redirect-to?url=${location}`]);
    });
  }

  it('refuses a redirect from a public host to http://127.0.0.1:<port> at the hop', async () => {
    // The first look at 127.0.0.1 (the lookup of public.test) stands in for a public address; any later
    // look is the real loopback the redirect points at.
    let standInUsed = false;
    const firstLookPublic = (address: string) => {
      if (address === '127.0.0.1' && !standInUsed) {
        standInUsed = true;
        return undefined;
      }
      return nonPublicRange(address);
    };
    const local = fakeDns({ 'public.test': ['127.0.0.1'] });
    const guarded = createInspectorWithAddressCheck(
      { allowPrivate: false, resolve: local.resolve },
      firstLookPublic,
    );
    try {
      const location = encodeURIComponent(target.url('/title'));
      const start = `http://public.test:${target.port}/redirect-to?url=${location}`;
      const { outcome, requests } = await inspectCounting(guarded, start);
      assert.equal(codeOf(outcome), '306');
      assertBlocked(outcome, '127.0.0.1');
      assert.deepEqual(requests, [`/redirect-to?url=${location}`]);
    } finally {
      await guarded.close();
    }
  });

  it('resolves a host once per connection, so a rebinding answer is never used', async () => {
    let calls = 0;
    const rebinding: Resolver = async () => {
      calls++;
      return [{ address: calls === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
    };
    const pinned = createInspectorWithAddressCheck({ allowPrivate: false, resolve: rebinding }, standInCheck);
    try {
      const outcome = await pinned.inspect(new URL(`http://rebind.test:${target.port}/title`));
      assert.equal(titleOf(outcome), FIXTURE_TITLES.plain);
      assert.equal(calls, 1);
    } finally {
      await pinned.close();
    }
  });
});
