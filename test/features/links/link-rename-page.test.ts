import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/** The Short code field of the link page's edit panel (docs/api.md §18). */

const PASSWORD = 'correct horse battery';

describe("renaming a link's code on its page", () => {
  let t: TestApp;
  let client: PageClient;

  before(async () => {
    t = await startTestApp();
    await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
    client = new PageClient(t.app);
    assert.equal((await client.signIn('ada@example.com', PASSWORD)).statusCode, 303);
    await client.open(client.at(''));
  });
  after(() => t.close());

  /** Creates a link through the dashboard form under this code. */
  async function created(url: string, slug: string): Promise<void> {
    const answer = await client.post(client.at('/links'), { url, slug });
    assert.equal(answer.statusCode, 303, answer.body);
  }
  /** The edit panel as sent: the link's own values, and these fields. */
  async function save(code: string, url: string, fields: Record<string, string>) {
    const title = (await t.store.findLinkByCode(0, code))?.title ?? '';
    return client.post(client.at(`/links/${code}`), { url, title, group: '', ...fields });
  }

  it('shows the code in a Short code field, and a new one moves the page to its address', async () => {
    await created('https://example.com/rename-page', 'page-old');
    const panel = await client.open(client.at('/links/page-old?edit'));
    assert.match(panel.body, /<label>Short code <input[^>]*name="slug"[^>]*value="page-old"/);

    const saved = await save('page-old', 'https://example.com/rename-page', { slug: ' page-new ' });
    assert.equal(saved.statusCode, 303);
    assert.equal(saved.headers.location, client.at('/links/page-new?done=saved'));
    const page = await client.open(client.at('/links/page-new'));
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<dt>Earlier codes<\/dt><dd data-aliases><code>page-old<\/code>/);
    const edit = await client.open(client.at('/links/page-new?edit'));
    assert.match(edit.body, /Earlier codes that still lead here: <code>page-old<\/code>/);
    const redirect = await t.app.inject({ method: 'GET', url: '/page-old' });
    assert.equal(redirect.headers.location, 'https://example.com/rename-page');
    assert.equal((await client.open(client.at('/links/page-old'))).statusCode, 404);
  });

  it('keeps the code when the field is left as it is or emptied', async () => {
    await created('https://example.com/kept-page', 'page-kept');
    const same = await save('page-kept', 'https://example.com/kept-page', { slug: 'page-kept' });
    assert.equal(same.headers.location, client.at('/links/page-kept?done=unchanged'));
    const empty = await save('page-kept', 'https://example.com/kept-page', { slug: '' });
    assert.equal(empty.headers.location, client.at('/links/page-kept?done=unchanged'));
  });

  it('says a taken code (313) and a malformed one (300) next to the field, keeping what was typed', async () => {
    await created('https://example.com/held-page', 'page-held');
    await created('https://example.com/steady-page', 'page-steady');
    for (const [slug, status, code] of [
      ['page-held', 409, '313'],
      ['page-old', 409, '313'],
      ['no', 400, '300'],
      ['not a code', 400, '300'],
    ] as const) {
      const answer = await save('page-steady', 'https://example.com/steady-page', { slug });
      assert.equal(answer.statusCode, status, slug);
      assert.equal(attribute(answer.body, 'data-error'), code, slug);
      assert.match(answer.body, /<p class="field-error" id="edit-slug-error"/, slug);
      assert.match(answer.body, new RegExp(`name="slug"[^>]*aria-invalid="true"[^>]*value="${slug}"`), slug);
      // One voice: no code or field name in the words said.
      const said = /id="edit-slug-error"[^>]*>([^<]*)</.exec(answer.body)?.[1] ?? '';
      assert.doesNotMatch(said, /slug|\b3\d\d\b/i, slug);
    }
    assert.ok(await t.store.findLinkByCode(0, 'page-steady'));
  });
});
