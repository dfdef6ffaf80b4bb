import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, callApi, keyWithScopes } from '../../fixtures/api-client.ts';
import { listedCodes, PageClient } from '../../fixtures/page-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import { send, type TestApp } from '../../helper.ts';

/**
 * Archiving a link (docs/api.md §18): `archived` and `last_clicked_at` on the resource, PATCH and
 * bulk PATCH {archived}, the row menu's and the link page's Archive; an archived link keeps
 * redirecting and counting.
 */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const CRAWLER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const PASSWORD = 'correct horse battery';

type LinkBody = Record<string, unknown>;

for (const kind of STORES) {
  describe(`archiving links on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    let n = 0;
    const fresh = () => `https://example.com/archived-${++n}`;

    before(async () => {
      t = await kind.start({ env: { CLICK_FLUSH_MS: '60000' } });
    });
    after(() => t?.close());

    const api = (method: string, path: string, body?: unknown) =>
      callApi(t.app, method, path, { key: t.apiKey, body });
    async function created(body: LinkBody = {}): Promise<LinkBody> {
      const answer = await api('POST', '/links', { url: fresh(), ...body });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body;
    }
    const read = async (code: string): Promise<LinkBody> => {
      const answer = await api('GET', `/links/${code}`);
      assert.equal(answer.status, 200);
      return answer.body;
    };
    const visit = (code: string, agent = BROWSER) =>
      send(t.app, { method: 'GET', url: `/${code}`, headers: { 'user-agent': agent } });

    it('shows archived false and last_clicked_at null on create, get and list', async () => {
      const link = await created();
      assert.equal(link.archived, false);
      assert.equal(link.last_clicked_at, null);
      const one = await read(link.short_code as string);
      assert.equal(one.archived, false);
      assert.equal(one.last_clicked_at, null);
      const listed = await api('GET', '/links?limit=100');
      assert.equal(listed.status, 200);
      const items = listed.body.items as LinkBody[];
      assert.ok(items.length > 0);
      for (const item of items) {
        assert.equal(typeof item.archived, 'boolean');
        assert.ok(item.last_clicked_at === null || typeof item.last_clicked_at === 'string');
      }
    });

    it('archives with PATCH {archived: true} and shows the link again with false', async () => {
      const link = await created({ title: 'Spring' });
      const code = link.short_code as string;
      const archived = await api('PATCH', `/links/${code}`, { archived: true });
      assert.equal(archived.status, 200, JSON.stringify(archived.body));
      assert.equal(archived.body.archived, true);
      assert.equal(archived.body.title, 'Spring', 'nothing else changes');
      assert.equal((await read(code)).archived, true);
      const shown = await api('PATCH', `/links/${code}`, { archived: false });
      assert.equal(shown.status, 200);
      assert.equal(shown.body.archived, false);
      assert.equal((await read(code)).archived, false);
    });

    it('refuses an archived that is not a boolean with 300, and a key without links:write with 315', async () => {
      const code = (await created()).short_code as string;
      for (const value of ['yes', 1, null]) {
        assertProblem(await api('PATCH', `/links/${code}`, { archived: value }), 400, '300');
      }
      const reader = await keyWithScopes(t.store, t.email, ['links:read'], 'reader');
      assertProblem(
        await callApi(t.app, 'PATCH', `/links/${code}`, { key: reader, body: { archived: true } }),
        403,
        '315',
      );
      assert.equal((await read(code)).archived, false);
    });

    it('keeps redirecting an archived link and counting its clicks, and sets last_clicked_at', async () => {
      const link = await created();
      const code = link.short_code as string;
      assert.equal((await visit(code)).status, 302, 'cached before it is archived');
      assert.equal((await api('PATCH', `/links/${code}`, { archived: true })).status, 200);
      const before = Date.now();
      for (let i = 0; i < 2; i++) {
        const answer = await visit(code);
        assert.equal(answer.status, 302);
        assert.equal(answer.headers.location, link.long_url);
      }
      await t.app.clicks.flush();
      const after = Date.now();
      const shown = await read(code);
      assert.equal(shown.clicks, 3);
      assert.equal(shown.archived, true);
      const at = Date.parse(String(shown.last_clicked_at));
      assert.ok(at >= before && at <= after, `${shown.last_clicked_at} within the clicks`);
    });

    it('leaves last_clicked_at null for bot hits alone', async () => {
      const code = (await created()).short_code as string;
      assert.equal((await visit(code, CRAWLER)).status, 302);
      await t.app.clicks.flush();
      const shown = await read(code);
      assert.equal(shown.bot_hits, 1);
      assert.equal(shown.clicks, 0);
      assert.equal(shown.last_clicked_at, null);
    });

    it('archives many links at once with bulk PATCH {change: {archived}}', async () => {
      const codes = [(await created()).short_code, (await created()).short_code] as string[];
      const answer = await api('PATCH', '/links/bulk', { codes, change: { archived: true } });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const items = answer.body.items as Array<{ link?: LinkBody; error?: unknown }>;
      assert.deepEqual(
        items.map((item) => item.link?.archived),
        [true, true],
      );
      for (const code of codes) assert.equal((await read(code)).archived, true);
      const back = await api('PATCH', '/links/bulk', { codes, change: { archived: false } });
      assert.equal(back.status, 200);
      for (const code of codes) assert.equal((await read(code)).archived, false);
    });

    describe('from the pages', () => {
      let client: PageClient;
      before(async () => {
        await t.ops.createAccount(`pages-${kind.name}@example.com`.toLowerCase(), 'tester', PASSWORD);
        client = new PageClient(t.app);
        const signedIn = await client.signIn(`pages-${kind.name}@example.com`.toLowerCase(), PASSWORD);
        assert.equal(signedIn.statusCode, 303);
        await client.open(client.at(''));
      });

      async function createdOnPage(url: string): Promise<string> {
        const answer = await client.post(client.at('/links'), { url });
        assert.equal(answer.statusCode, 303, answer.body);
        const code = /created=([0-9A-Za-z]{7})/.exec(String(answer.headers.location))?.[1];
        assert.ok(code);
        return code;
      }

      it('archives from the row menu and back, the link still redirecting', async () => {
        const code = await createdOnPage(fresh());
        const list = await client.open(client.at(''));
        const action = client.at(`/links/${code}/archive`);
        assert.match(
          list.body,
          new RegExp(`action="${action}"[\\s\\S]*?name="archived" value="true"[\\s\\S]*?>Archive<`),
        );
        const archived = await client.post(action, { archived: 'true', back: client.at('?page=1') });
        assert.equal(archived.statusCode, 303);
        assert.equal(archived.headers.location, client.at('?page=1&done=link-archived'));
        const link = await t.store.findLinkByCode(0, code);
        assert.equal(link?.archived, true);
        assert.equal((await visit(code)).status, 302);
        assert.ok(
          !listedCodes((await client.open(client.at(''))).body).includes(code),
          'off the default list',
        );
        const shown = await client.post(action, { archived: 'false', back: client.at('') });
        assert.equal(shown.headers.location, client.at('?done=link-unarchived'));
        assert.equal((await t.store.findLinkByCode(0, code))?.archived, false);
        assert.ok(listedCodes((await client.open(client.at(''))).body).includes(code), 'back on the list');
        // An address off this list goes back to the list.
        const offsite = await client.post(action, { archived: 'true', back: '//evil.example/' });
        assert.equal(offsite.headers.location, client.at('?done=link-archived'));
      });

      it('shows the state and the last click on the link page, and archives from there', async () => {
        const code = await createdOnPage(fresh());
        const page = client.at(`/links/${code}`);
        const before = await client.open(page);
        assert.equal(before.statusCode, 200);
        assert.match(before.body, /data-last-click><span class="hint">never</);
        assert.match(before.body, /data-fact="archived"><span class="hint">no</);
        assert.doesNotMatch(before.body, /data-badge="archived"/);
        const archived = await client.post(client.at(`/links/${code}/archive`), {
          archived: 'true',
          back: page,
        });
        assert.equal(archived.statusCode, 303);
        assert.equal(archived.headers.location, `${page}?done=archived`);
        assert.equal((await visit(code)).status, 302);
        await t.app.clicks.flush();
        const after = await client.open(page);
        assert.match(after.body, /data-badge="archived"/);
        assert.match(after.body, /data-fact="archived">yes/);
        assert.match(after.body, /data-last-click><time datetime="[^"]+Z">/);
        assert.match(after.body, /name="archived" value="false"[\s\S]*?>Unarchive</);
      });

      it('answers 404 for a code the workspace does not have, and 403 without the session token', async () => {
        assert.equal(
          (await client.post(client.at('/links/nosuchcode/archive'), { archived: 'true' })).statusCode,
          404,
        );
        const code = await createdOnPage(fresh());
        const forged = await client.post(client.at(`/links/${code}/archive`), {
          archived: 'true',
          _csrf: '',
        });
        assert.equal(forged.statusCode, 403);
        assert.equal((await t.store.findLinkByCode(0, code))?.archived, false);
      });
    });
  });
}
