import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { openStore } from '../../../src/adapters/open-store.ts';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { cliStore, MIGRATED, passing } from '../../fixtures/cli-harness.ts';
import { send } from '../../helper.ts';

/**
 * `snip domain add|verify|set|list|remove` (docs/api.md §12), each with --json, on one migrated store,
 * while a server over the same store runs: what the operator verifies there is served at once.
 */

const { env, snip } = cliStore(MIGRATED);
let app: FastifyInstance;
let appStore: Store;
let key: string;

const ok = async (...argv: string[]) => {
  const run = await snip(...argv, '--json');
  assert.equal(run.code, 0, `snip ${argv.join(' ')}: ${run.err}`);
  return run.json;
};
const refused = async (code: string, ...argv: string[]) => {
  const run = await snip(...argv, '--json');
  assert.equal(run.code, 1, `snip ${argv.join(' ')} should be refused: ${run.out}`);
  assert.equal(run.json.code, code);
};

describe('the domain commands', () => {
  before(async () => {
    key = String((await ok('account', 'create', 'brand@example.com', '--plan', 'pro')).api_key);
    appStore = await openStore(env.DATABASE_URL as string, { prepare: true });
    app = await buildApp(loadConfig(env), { store: appStore, inspector: passing() });
  });
  after(async () => {
    await app?.close();
    await appStore?.close();
  });

  it('adds a shared domain, verified at once, and a workspace’s own, to be verified', async () => {
    const shared = await ok('domain', 'add', 'Links.Example', '--shared');
    assert.equal(shared.host, 'links.example');
    assert.equal(shared.shared, true);
    assert.equal(shared.verified, true);
    const slug = ((await ok('workspace', 'list')).items as Array<{ slug: string }>)[0]?.slug ?? '';
    const own = await ok('domain', 'add', 'brand.example', '--workspace', slug);
    assert.equal(own.verified, false);
    assert.equal(own.workspace, slug);
    assert.deepEqual(Object.keys(own.verification as object).sort(), ['record', 'value']);
  });

  it('refuses hosts that cannot be domains, the default domain and a host added already', async () => {
    await refused('300', 'domain', 'add', 'not a host', '--shared');
    await refused('317', 'domain', 'add', 'sn.ip', '--shared');
    await refused('317', 'domain', 'add', 'links.example', '--shared');
    const usage = await snip('domain', 'add', 'x.example', '--json');
    assert.equal(usage.code, 64);
  });

  it('serves a domain the operator verifies while the server runs', async () => {
    const body = { url: 'https://example.com/brand', domain: 'brand.example' };
    assertProblem(await callApi(app, 'POST', '/links', { key, body }), 400, '317');
    const verified = await ok('domain', 'verify', 'brand.example');
    assert.equal(verified.verified, true);
    const created = await callApi(app, 'POST', '/links', { key, body: { ...body, slug: 'launch' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.short_url, 'https://brand.example/launch');
    const visit = await send(app, { method: 'GET', url: '/launch', headers: { host: 'brand.example' } });
    assert.equal(visit.headers.location, 'https://example.com/brand');
    const ask = await send(app, { method: 'GET', url: '/.well-known/snip/tls-allowed?domain=brand.example' });
    assert.equal(ask.status, 200);
    const shared = await callApi(app, 'POST', '/links', {
      key,
      body: { url: 'https://example.com/shared', domain: 'links.example' },
    });
    assert.equal(shared.status, 201);
  });

  it('changes a domain’s settings, the default domain’s too', async () => {
    const set = await ok(
      'domain',
      'set',
      'brand.example',
      '--root-redirect',
      'https://brand.example/home',
      '--https',
      'off',
    );
    assert.equal(set.root_redirect, 'https://brand.example/home');
    assert.equal(set.https, false);
    const cleared = await ok('domain', 'set', 'brand.example', '--root-redirect', 'none');
    assert.equal(cleared.root_redirect, null);
    const home = await ok('domain', 'set', 'sn.ip', '--not-found-redirect', 'https://example.com/lost');
    assert.equal(home.not_found_redirect, 'https://example.com/lost');
    await refused('300', 'domain', 'set', 'brand.example', '--root-redirect', 'javascript:alert(1)');
    assert.equal((await snip('domain', 'set', 'brand.example', '--https', 'maybe', '--json')).code, 64);
  });

  it('names a link off the default domain with --domain, in link and stats commands', async () => {
    const shown = await ok('link', 'show', 'launch', '--domain', 'Brand.Example');
    assert.equal(shown.short_url, 'http://brand.example/launch');
    assert.equal(shown.domain, 'brand.example');
    await refused('314', 'link', 'show', 'launch');
    await refused('317', 'link', 'show', 'launch', '--domain', 'nowhere.example');
    assert.equal((await snip('link', 'stats', 'launch', '--domain', 'brand.example', '--json')).code, 0);
    const edited = await ok('link', 'edit', 'launch', '--domain', 'brand.example', '--title', 'Launch');
    assert.equal(edited.title, 'Launch');
  });

  it('lists every domain with its workspace and live links, the default first', async () => {
    const items = (await ok('domain', 'list')).items as Array<Record<string, unknown>>;
    assert.deepEqual(
      items.map((item) => item.host),
      ['sn.ip', 'links.example', 'brand.example'],
    );
    const brand = items.find((item) => item.host === 'brand.example');
    assert.equal(brand?.links, 1);
    assert.equal(brand?.verified, true);
    const line = await snip('domain', 'list');
    assert.match(line.out, /brand\.example\t\S+\tverified\t1 links/);
  });

  it('removes a domain only without live links', async () => {
    await refused('318', 'domain', 'remove', 'brand.example');
    await refused('318', 'domain', 'remove', 'links.example');
    await refused('314', 'domain', 'remove', 'never.example');
    await refused('314', 'domain', 'remove', 'sn.ip');
    await ok('domain', 'add', 'spare.example', '--shared');
    const removed = await ok('domain', 'remove', 'spare.example');
    assert.equal(removed.removed, 'spare.example');
    const hosts = ((await ok('domain', 'list')).items as Array<{ host: string }>).map((item) => item.host);
    assert.deepEqual(hosts, ['sn.ip', 'links.example', 'brand.example']);
  });

  it('verifies one of several workspaces’ claims on a host only when told whose', async () => {
    await ok('account', 'create', 'other@example.com', '--plan', 'pro');
    const slugs = ((await ok('workspace', 'list')).items as Array<{ slug: string }>).map((w) => w.slug);
    const [first = '', second = ''] = slugs;
    await ok('domain', 'add', 'both.example', '--workspace', first);
    await ok('domain', 'add', 'both.example', '--workspace', second);
    await refused('300', 'domain', 'verify', 'both.example');
    const verified = await ok('domain', 'verify', 'both.example', '--workspace', second);
    assert.equal(verified.verified, true);
    const items = (await ok('domain', 'list')).items as Array<{ host: string; workspace: string }>;
    assert.deepEqual(
      items.filter((item) => item.host === 'both.example').map((item) => item.workspace),
      [second],
      'the other claim was dropped',
    );
    await refused('317', 'domain', 'add', 'both.example', '--workspace', first);
  });
});
