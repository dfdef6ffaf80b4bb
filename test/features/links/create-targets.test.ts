import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createInspector } from '../../../src/adapters/inspect/inspector.ts';
import type { ResolvedAddress } from '../../../src/adapters/inspect/types.ts';
import { FIXTURE_TITLES, startTargetServer, type TargetServer } from '../../fixtures/target-server.ts';
import { createForm, createJson, startTestApp, type TestApp } from '../../helper.ts';

/** POST /create with the real inspector against fixture targets on 127.0.0.1 (docs/api.md §2.3 rows 11-15, 2.7). */

let target: TargetServer;
before(async () => {
  target = await startTargetServer();
});
after(() => target.close());

describe('POST /create inspecting real targets (ALLOW_PRIVATE_TARGETS=true)', () => {
  let t: TestApp;
  before(async () => {
    // A short deadline keeps the never-answering targets quick; the rule is the same as with 5 s.
    t = await startTestApp({
      env: { ALLOW_PRIVATE_TARGETS: 'true' },
      inspector: createInspector({ allowPrivate: true, timeoutMs: 1500 }),
    });
  });
  after(async () => {
    await t.close();
    await t.inspector.close();
  });

  const created: Array<[string, string]> = [
    ['/title', FIXTURE_TITLES.plain],
    ['/windows-1251', FIXTURE_TITLES.windows1251],
    ['/shift-jis', FIXTURE_TITLES.shiftJis],
    ['/xss-title', FIXTURE_TITLES.xss],
    ['/large', FIXTURE_TITLES.large],
    ['/endless-titled', FIXTURE_TITLES.endless],
    // An endless body is read only up to the 512 KiB cap: reachable, just without a title.
    ['/endless', ''],
    ['/behind-cloudflare', FIXTURE_TITLES.plain],
    ['/redirect/3', FIXTURE_TITLES.plain],
    ['/redirect/5', FIXTURE_TITLES.plain],
    ['/json', ''],
    ['/chunked-empty', ''],
  ];
  for (const [path, title] of created) {
    it(`creates a link to ${path} with its title`, async () => {
      const answer = await createJson(t.app, t.apiKey, { url: target.url(path) });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.equal(answer.body.title, title);
    });
  }

  const refused: Array<[string, string]> = [
    ['/missing', '307'],
    ['/modsecurity-406', '308'],
    ['/modsecurity-403', '308'],
    ['/noyb', '308'],
    ['/cloudflare-challenge', '309'],
    ['/cloudflare-mitigated', '309'],
    ['/empty', '311'],
    ['/error', '306'],
    ['/hang', '306'],
    ['/slow-headers', '306'],
    ['/loop-a', '306'],
    ['/redirect/6', '306'],
    ['/redirect-without-location', '306'],
  ];
  for (const [path, code] of refused) {
    it(`answers ${code} for ${path}`, async () => {
      const answer = await createForm(t.app, { apikey: t.apiKey, url: target.url(path) });
      assert.equal(answer.body.error, code, JSON.stringify(answer.body));
      assert.equal(answer.status, 422);
    });
  }

  it('answers 306 for a host that does not resolve', async () => {
    const answer = await createJson(t.app, t.apiKey, { url: 'http://no-such-host.invalid/' });
    assert.equal(answer.body.error, '306');
  });

  it('answers 306 for a refused connection', async () => {
    const closed = await startTargetServer();
    const url = closed.url('/title');
    await closed.close();
    assert.equal((await createJson(t.app, t.apiKey, { url })).body.error, '306');
  });
});

describe('POST /create refusing non-public targets (ALLOW_PRIVATE_TARGETS=false)', () => {
  let t: TestApp;
  const names: Record<string, string[]> = {
    'private.test': ['10.0.0.1'],
    'metadata.test': ['169.254.169.254'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'cgnat.test': ['100.64.0.1'],
  };
  before(async () => {
    t = await startTestApp({
      inspector: createInspector({
        allowPrivate: false,
        timeoutMs: 1500,
        resolve: async (hostname): Promise<ResolvedAddress[]> => {
          const addresses = names[hostname];
          if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
          return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
        },
      }),
    });
  });
  after(async () => {
    await t.close();
    await t.inspector.close();
  });

  for (const host of Object.keys(names)) {
    it(`answers 306 for a host resolving to ${names[host]?.join()} without connecting`, async () => {
      const before = target.connections();
      const answer = await createJson(t.app, t.apiKey, { url: `http://${host}:${target.port}/title` });
      assert.equal(answer.body.error, '306');
      assert.equal(target.connections(), before);
      // The answer never tells which internal address the name resolved to.
      for (const address of names[host] ?? []) assert.ok(!String(answer.body.message).includes(address));
      assert.doesNotMatch(String(answer.body.message), /\d+\.\d+\.\d+\.\d+|::|loopback|private/);
    });
  }

  for (const literal of ['127.0.0.1', '[::1]', '[::ffff:7f00:1]', '2130706433']) {
    it(`answers 306 for the loopback literal ${literal} without connecting`, async () => {
      const before = target.connections();
      const answer = await createJson(t.app, t.apiKey, { url: `http://${literal}:${target.port}/title` });
      assert.equal(answer.body.error, '306');
      assert.doesNotMatch(String(answer.body.message), /127\.0\.0\.1|::1|7f00|loopback/);
      assert.equal(target.connections(), before);
    });
  }
});
