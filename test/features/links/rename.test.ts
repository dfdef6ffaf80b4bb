import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import { send, type TestApp } from '../../helper.ts';

/** Renaming a link's code (docs/api.md §18): PATCH {slug}, the old code kept as the link's alias. */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

type LinkBody = Record<string, unknown>;

for (const kind of STORES) {
  describe(`renaming a link's code on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    let n = 0;
    const fresh = () => `https://example.com/renamed-${++n}`;

    before(async () => {
      t = await kind.start({ env: { CLICK_FLUSH_MS: '60000' } });
    });
    after(() => t?.close());

    const patch = (code: string, body: unknown) =>
      callApi(t.app, 'PATCH', `/links/${code}`, { key: t.apiKey, body });
    async function created(body: LinkBody): Promise<LinkBody> {
      const answer = await callApi(t.app, 'POST', '/links', {
        key: t.apiKey,
        body: { url: fresh(), ...body },
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body;
    }
    const visit = (code: string) =>
      send(t.app, { method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER } });
    async function clicksOf(code: string): Promise<number> {
      await t.app.clicks.flush();
      const link = await callApi(t.app, 'GET', `/links/${code}`, { key: t.apiKey });
      assert.equal(link.status, 200);
      return Number(link.body.clicks);
    }

    it('gives the link the new code; the old one redirects to it, counts on it and is listed in aliases', async () => {
      const link = await created({ slug: 'spring-26' });
      // Both codes asked for before: the old one cached as the link, the new one as unknown.
      assert.equal((await visit('spring-26')).status, 302);
      assert.equal((await visit('spring-sale')).status, 404);
      const renamed = await patch('spring-26', { slug: 'spring-sale' });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.equal(renamed.body.short_code, 'spring-sale');
      assert.equal(renamed.body.short_url, 'https://sn.ip/spring-sale');
      assert.equal(renamed.body.qr_code, 'https://sn.ip/qrcode/spring-sale.png');
      assert.deepEqual(renamed.body.aliases, ['spring-26']);
      assert.equal(renamed.body.created_at, link.created_at);
      for (const code of ['spring-sale', 'spring-26']) {
        const answer = await visit(code);
        assert.equal(answer.status, 302, code);
        assert.equal(answer.headers.location, link.long_url, code);
      }
      assert.equal(await clicksOf('spring-sale'), 3, 'every click, by either code, counts on the link');
      const shown = await callApi(t.app, 'GET', '/links/spring-sale', { key: t.apiKey });
      assert.deepEqual(shown.body.aliases, ['spring-26']);
      // The old code is no address of the link in the API any more, and stats follow the new one.
      assertProblem(await callApi(t.app, 'GET', '/links/spring-26', { key: t.apiKey }), 404, '314');
      const stats = await callApi(t.app, 'GET', '/links/spring-sale/stats', { key: t.apiKey });
      assert.equal(stats.status, 200);
      const listed = await callApi(t.app, 'GET', '/links?limit=100', { key: t.apiKey });
      const item = (listed.body.items as LinkBody[]).find((one) => one.short_code === 'spring-sale');
      assert.deepEqual(item?.aliases, ['spring-26']);
      assert.ok((listed.body.items as LinkBody[]).every((one) => Array.isArray(one.aliases)));
    });

    it('never issues the old code again: creating or renaming to it is 313', async () => {
      await created({ slug: 'old-name' });
      assert.equal((await patch('old-name', { slug: 'new-name' })).status, 200);
      assertProblem(
        await callApi(t.app, 'POST', '/links', { key: t.apiKey, body: { url: fresh(), slug: 'old-name' } }),
        409,
        '313',
      );
      await created({ slug: 'someone' });
      assertProblem(await patch('someone', { slug: 'old-name' }), 409, '313');
    });

    it('refuses a taken, issued or reserved code with 313 and a bad shape with 300, changing nothing', async () => {
      const link = await created({ slug: 'steady-code', title: 'Steady' });
      await created({ slug: 'held-code' });
      await created({ slug: 'gone-code' });
      assert.equal((await callApi(t.app, 'DELETE', '/links/gone-code', { key: t.apiKey })).status, 204);
      const refusals: Array<[unknown, number, string]> = [
        [{ slug: 'held-code' }, 409, '313'],
        [{ slug: 'gone-code' }, 409, '313'],
        [{ slug: 'api' }, 409, '313'],
        [{ slug: 'no' }, 400, '300'],
        [{ slug: 'not a code' }, 400, '300'],
        [{ slug: 'x'.repeat(65) }, 400, '300'],
        [{ slug: 42 }, 400, '300'],
        [{ slug: 'held-code', title: 'Changed' }, 409, '313'],
      ];
      for (const [body, status, code] of refusals)
        assertProblem(await patch('steady-code', body), status, code);
      const after = await callApi(t.app, 'GET', '/links/steady-code', { key: t.apiKey });
      assert.equal(after.body.title, 'Steady');
      assert.deepEqual(after.body.aliases, []);
      assert.equal(after.body.updated_at, link.updated_at);
      assert.equal((await visit('held-code')).status, 302);
    });

    it('renames back to an alias of the same link: it is the code again, the other an alias', async () => {
      await created({ slug: 'back-one' });
      assert.equal((await patch('back-one', { slug: 'back-two' })).status, 200);
      const back = await patch('back-two', { slug: 'back-one' });
      assert.equal(back.status, 200, JSON.stringify(back.body));
      assert.equal(back.body.short_code, 'back-one');
      assert.deepEqual(back.body.aliases, ['back-two']);
      // The same code again is no change at all.
      const same = await patch('back-one', { slug: 'back-one' });
      assert.deepEqual(same.body.aliases, ['back-two']);
      assert.equal((await visit('back-two')).status, 302);
    });

    it('keeps an alias on what the link is now: a new target, then its deletion', async () => {
      await created({ slug: 'moving-old' });
      assert.equal((await patch('moving-old', { slug: 'moving-new' })).status, 200);
      assert.equal((await visit('moving-old')).status, 302); // cached under the alias now
      const target = fresh();
      assert.equal((await patch('moving-new', { url: target })).status, 200);
      assert.equal((await visit('moving-old')).headers.location, target);
      assert.equal((await callApi(t.app, 'DELETE', '/links/moving-new', { key: t.apiKey })).status, 204);
      assert.equal((await visit('moving-old')).status, 404);
    });

    it('answers an alias over a real connection, cold and then hot, counting both', async () => {
      const link = await created({ slug: 'wire-old' });
      assert.equal((await patch('wire-old', { slug: 'wire-new' })).status, 200);
      t.app.linkCache.clear();
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const get = () =>
        fetch(`http://127.0.0.1:${port}/wire-old`, {
          redirect: 'manual',
          headers: { 'user-agent': BROWSER },
        });
      const [cold, hot] = [await get(), await get()];
      for (const answer of [cold, hot]) {
        assert.equal(answer.status, 302);
        assert.equal(answer.headers.get('location'), link.long_url);
      }
      assert.equal(await clicksOf('wire-new'), 2);
    });
  });
}
