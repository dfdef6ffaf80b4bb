import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import { send, type TestApp } from '../../helper.ts';

/** A link's public stats page at /<code>+ (docs/api.md §19, "Public stats") on both stores. */

const ACME = 'go.acme.example';
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

for (const kind of STORES) {
  describe(`public stats (${kind.name})`, { skip: kind.skip }, () => {
    let t: TestApp;
    const records = new Map<string, string>();
    const api = (method: string, path: string, body?: unknown) =>
      callApi(t.app, method, path, { key: t.apiKey, ...(body === undefined ? {} : { body }) });
    const statsPage = (code: string, host = 'sn.ip') =>
      send(t.app, { method: 'GET', url: `/${code}+`, headers: { host, accept: 'text/html' } });
    const made = async (slug: string, fields: Record<string, unknown> = {}) => {
      const answer = await api('POST', '/links', {
        url: `https://example.com/secret-${slug}`,
        slug,
        title: `Secret ${slug}`,
        ...fields,
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body;
    };

    before(async () => {
      t = await kind.start({
        resolveTxt: async (name) => {
          const value = records.get(name);
          if (value === undefined) throw Object.assign(new Error('no record'), { code: 'ENODATA' });
          return [[value]];
        },
      });
      const added = await api('POST', '/domains', { host: ACME });
      const { record, value } = added.body.verification as { record: string; value: string };
      records.set(record, value);
      assert.equal((await api('POST', `/domains/${ACME}/verify`)).body.verified, true);
    });
    after(() => t?.close());

    it('is off by default: the resource says false and /<code>+ is the ordinary 404', async () => {
      const link = await made('private1');
      assert.equal(link.public_stats, false);
      const page = await statsPage('private1');
      assert.equal(page.status, 404);
      assert.equal(page.headers['x-robots-tag'], undefined);
    });

    it('shows the link’s figures to anyone, noindex, with nothing of the workspace, owner or target', async () => {
      const link = await made('open1', { public_stats: true });
      assert.equal(link.public_stats, true);
      await made('neighbour1');
      for (let i = 0; i < 3; i++) {
        const click = await send(t.app, { method: 'GET', url: '/open1', headers: { 'user-agent': CHROME } });
        assert.equal(click.status, 302);
      }
      await t.app.clicks.flush();
      const page = await statsPage('open1');
      assert.equal(page.status, 200);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.equal(page.headers['x-robots-tag'], 'noindex');
      assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
      const body = String(page.body.raw);
      assert.match(body, /<meta name="robots" content="noindex/);
      assert.match(body, /data-total="clicks">3</);
      assert.match(body, /data-code="open1"/);
      const account = await t.store.findAccountByEmail(t.email);
      assert.ok(account);
      for (const secret of [
        t.email,
        'secret-open1',
        'Secret open1',
        'neighbour1',
        `/w/${account.workspace.slug}`,
        'Sign out',
      ]) {
        assert.ok(!body.includes(secret), `the page names ${secret}`);
      }
    });

    it('follows PATCH both ways at once, and refuses a public_stats that is not a boolean with 300', async () => {
      await made('flip1');
      assert.equal((await statsPage('flip1')).status, 404);
      const on = await api('PATCH', '/links/flip1', { public_stats: true });
      assert.equal(on.status, 200);
      assert.equal(on.body.public_stats, true);
      assert.equal((await statsPage('flip1')).status, 200);
      assert.equal((await api('PATCH', '/links/flip1', { public_stats: false })).status, 200);
      assert.equal((await statsPage('flip1')).status, 404);
      assertProblem(await api('PATCH', '/links/flip1', { public_stats: 'yes' }), 400, '300');
      assertProblem(
        await api('POST', '/links', { url: 'https://example.com/x', public_stats: 1 }),
        400,
        '300',
      );
    });

    it('answers only on the link’s own domain', async () => {
      await made('home1', { public_stats: true });
      await made('acme1', { public_stats: true, domain: ACME });
      assert.equal((await statsPage('home1')).status, 200);
      assert.equal((await statsPage('home1', ACME)).status, 404);
      assert.equal((await statsPage('acme1', ACME)).status, 200);
      assert.equal((await statsPage('acme1')).status, 404);
      assert.equal((await statsPage('home1', 'unknown.example')).status, 404);
    });

    it('answers 404 for an archived or deleted link, an unknown code and a code that cannot be', async () => {
      await made('gone1', { public_stats: true });
      await made('shelved1', { public_stats: true });
      assert.equal((await statsPage('gone1')).status, 200);
      assert.equal((await statsPage('shelved1')).status, 200);
      assert.equal((await api('DELETE', '/links/gone1')).status, 204);
      assert.equal((await api('PATCH', '/links/shelved1', { archived: true })).status, 200);
      assert.equal((await statsPage('gone1')).status, 404);
      assert.equal((await statsPage('shelved1')).status, 404);
      assert.equal((await statsPage('nothing1')).status, 404);
      assert.equal((await statsPage('a+b')).status, 404);
      assert.equal((await send(t.app, { method: 'POST', url: '/open1+' })).status, 404);
    });
  });
}
