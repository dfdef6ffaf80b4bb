import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { attribute, listedCodes, PageClient } from '../../fixtures/page-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import type { TestApp } from '../../helper.ts';

/**
 * The list as a workbench, over HTTP (docs/adr/040): `?duplicate=` fills the create form in with
 * a copy of a link (an unknown or malformed one fills in nothing, never a 500), the filter form and
 * its chips, the sortable headings and the row menu's actions.
 */

const PASSWORD = 'correct horse battery';

/** The value of the create form's field `name` (an input's value, a textarea's text). */
function createField(body: string, name: string): string | undefined {
  const form = /<form[^>]*class="row create-form"[\s\S]*?<\/form>/.exec(body)?.[0] ?? '';
  const input = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(form)?.[0];
  return input === undefined ? undefined : attribute(input, 'value');
}

for (const kind of STORES) {
  describe(`the link workbench's pages on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    let client: PageClient;
    let code = '';

    before(async () => {
      t = await kind.start();
      const email = `bench-${kind.name}@example.com`.toLowerCase();
      await t.ops.createAccount(email, 'tester', PASSWORD);
      client = new PageClient(t.app);
      assert.equal((await client.signIn(email, PASSWORD)).statusCode, 303);
      await client.open(client.at(''));
      const created = await client.post(client.at('/links'), {
        url: 'https://example.com/spring/launch',
        title: 'Spring launch & more',
        tags: 'spring, launch',
      });
      assert.equal(created.statusCode, 303, created.body);
      code = /created=([0-9A-Za-z]{7})/.exec(String(created.headers.location))?.[1] ?? '';
      assert.ok(code);
    });
    after(() => t?.close());

    it('fills the create form in with a copy of the link, saying whose', async () => {
      const page = await client.open(client.at(`?duplicate=${code}`));
      assert.equal(page.statusCode, 200);
      assert.equal(createField(page.body, 'url'), 'https://example.com/spring/launch');
      assert.equal(createField(page.body, 'title'), 'Spring launch &#38; more');
      assert.equal(createField(page.body, 'tags'), 'launch, spring');
      assert.equal(createField(page.body, 'slug'), '');
      assert.match(page.body, new RegExp(`data-copy-of="${code}"`));
    });

    it('answers an unknown, foreign-domain or malformed copy with the plain form, never a 500', async () => {
      for (const query of [
        '?duplicate=nope123',
        `?duplicate=${code}&duplicate_domain=elsewhere.example`,
        '?duplicate=%00%3Cscript%3E',
        '?duplicate=&duplicate=x',
        `?duplicate[a]=${code}`,
        `?duplicate=${'x'.repeat(5000)}`,
      ]) {
        const page = await client.open(client.at(query));
        // A NUL anywhere in an address is refused (400) before any page reads it.
        if (query.includes('%00')) {
          assert.equal(page.statusCode, 400, query);
          continue;
        }
        assert.equal(page.statusCode, 200, query);
        assert.equal(createField(page.body, 'url'), '', query);
        assert.doesNotMatch(page.body, /data-copy-of=/, query);
      }
    });

    it('creates the copy under a code of its own once its target differs', async () => {
      const made = await client.post(client.at('/links'), {
        url: 'https://example.com/spring/launch?utm_source=newsletter',
        title: 'Spring launch & more',
        tags: 'launch, spring',
      });
      assert.equal(made.statusCode, 303, made.body);
      const copy = /created=([0-9A-Za-z]{7})/.exec(String(made.headers.location))?.[1];
      assert.ok(copy && copy !== code);
    });

    it('offers the row menu’s actions: copy, edit, QR code, duplicate, archive, delete', async () => {
      const page = await client.open(client.at(''));
      const menu = new RegExp(`id="menu-short-${code}"[\\s\\S]*?</div>`).exec(page.body)?.[0] ?? '';
      for (const action of ['copy', 'edit', 'qr', 'duplicate', 'open', 'stats'])
        assert.match(menu, new RegExp(`data-action="${action}"`), action);
      assert.match(menu, new RegExp(`href="${client.at(`/links/${code}`)}\\?qr#qr"`));
      assert.ok(menu.includes(`href="${client.at(`?duplicate=${code}#create`)}"`), 'duplicate');
      assert.match(menu, />Archive</);
      assert.match(menu, />Delete link</);
      const qr = await client.open(client.at(`/links/${code}?qr`));
      assert.equal(qr.statusCode, 200);
      assert.match(qr.body, /<details class="more qr-design" open>/);
    });

    it('lists by the filters and headings of the address, each filter a chip that takes it off', async () => {
      const page = await client.open(client.at('?q=spring&tag=launch&state=all&sort=title&order=asc'));
      assert.equal(page.statusCode, 200);
      assert.ok(listedCodes(page.body).includes(code));
      for (const drop of ['search', 'tag', 'state'])
        assert.match(page.body, new RegExp(`data-drop="${drop}"`));
      assert.match(page.body, /<th scope="col" class="col-link" aria-sort="ascending">/);
      // The current heading flips its order; another starts from its own.
      assert.match(page.body, /href="[^"]*sort=title"[^>]*data-sort="title"/);
      assert.match(page.body, /href="[^"]*sort=clicks"[^>]*data-sort="clicks"/);
      assert.match(page.body, /<td class="last-click">[\s\S]*?Never/);
      const bad = await client.open(client.at('?state=nonsense&sort=%01&tag=&group=x&domain=%20&order=up'));
      assert.equal(bad.statusCode, 200);
    });
  });
}
