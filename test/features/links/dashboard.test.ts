import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { NewLink } from '../../../src/core/entities.ts';
import { OWN_URL_TEXT } from '../../../src/features/links/pages/link-field-errors.ts';
import { keyWithScopes } from '../../fixtures/api-client.ts';
import { attribute, listedCodes, PageClient } from '../../fixtures/page-client.ts';
import { withoutTokens } from '../../fixtures/without-tokens.ts';
import { createJson, startTestApp, type TestApp } from '../../helper.ts';

/** /w/<slug>, the dashboard: listing, paging, search and group filter, create and delete, groups, ownership, usage. */

const PASSWORD = 'correct horse battery';
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

async function signedIn(t: TestApp, email: string, plan = 'tester'): Promise<PageClient> {
  await t.ops.createAccount(email, plan, PASSWORD);
  const client = new PageClient(t.app);
  assert.equal((await client.signIn(email, PASSWORD)).statusCode, 303);
  return client;
}

async function workspaceId(t: TestApp, email: string): Promise<number> {
  const account = await t.store.findAccountByEmail(email);
  assert.ok(account);
  return account.workspace.id;
}

function seeded(owner: number, i: number, overrides: Partial<NewLink> = {}): NewLink {
  const url = `https://example.com/page/${i}`;
  return {
    code: `s${String(owner).padStart(2, '0')}${String(i).padStart(4, '0')}`,
    domainId: 0,
    workspaceId: owner,
    groupId: null,
    longUrl: url,
    normalizedUrl: url,
    urlHash: createHash('sha256').update(url).digest('hex'),
    title: `Page ${i}`,
    ...overrides,
  };
}

/** Creates a link through the dashboard form; answers its code. */
async function createFromDashboard(client: PageClient, url: string, group = ''): Promise<string> {
  const answer = await client.post(client.at('/links'), { url, group });
  assert.equal(answer.statusCode, 303, answer.body);
  const code = /created=([0-9A-Za-z]{7})/.exec(String(answer.headers.location))?.[1];
  assert.ok(code);
  return code;
}

describe('the dashboard', () => {
  it('sends a visitor without a session to the sign-in page', async () => {
    const t = await startTestApp();
    try {
      for (const path of ['/dashboard', '/dashboard/links/abcdefg', '/account']) {
        const answer = await t.app.inject({ method: 'GET', url: path });
        assert.equal(answer.statusCode, 303, path);
        assert.equal(answer.headers.location, '/login', path);
      }
      const post = await t.app.inject({ method: 'POST', url: '/dashboard/groups', payload: { name: 'x' } });
      assert.equal(post.statusCode, 303);
      assert.deepEqual(await t.store.listGroups(await workspaceId(t, t.email)), []);
    } finally {
      await t.close();
    }
  });

  it('pages 120 links newest first, 50 to a page', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      const id = await workspaceId(t, 'ada@example.com');
      const links = Array.from({ length: 120 }, (_, i) => seeded(id, i));
      await t.store.insertLinksBulk(links);
      const newestFirst = links.map((link) => link.code).reverse();

      // Older pages by keyset: each page's "Older" address continues after its last link.
      const link = (body: string, rel: string) =>
        new RegExp(`href="([^"]*)" rel="${rel}"`).exec(body)?.[1]?.replaceAll('&amp;', '&');
      const pages = [await client.open(client.at(''))];
      for (
        let next = link(pages[0]?.body ?? '', 'next');
        next;
        next = link(pages.at(-1)?.body ?? '', 'next')
      ) {
        pages.push(await client.open(next));
      }
      assert.deepEqual(
        pages.map((page) => listedCodes(page.body).length),
        [50, 50, 20],
      );
      assert.deepEqual(
        pages.flatMap((page) => listedCodes(page.body)),
        newestFirst,
      );
      assert.equal(attribute(pages[0]?.body ?? '', 'data-total'), '120');
      assert.equal(link(pages[0]?.body ?? '', 'prev'), undefined, 'no newer page before the first');
      // "Newer" from the third page leads back to the second.
      const back = await client.open(link(pages[2]?.body ?? '', 'prev') ?? '');
      assert.deepEqual(listedCodes(back.body), newestFirst.slice(50, 100));
      // A position no link has is simply the start of that part of the order.
      assert.deepEqual(listedCodes((await client.open(client.at('?after=0.0'))).body), []);
      assert.equal(listedCodes((await client.open(client.at('?after=nonsense'))).body).length, 50);
    } finally {
      await t.close();
    }
  });

  it('searches URL and title, filters by group, and combines both', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      const id = await workspaceId(t, 'ada@example.com');
      const group = await t.ops.createGroup('ada@example.com', 'Spring');
      await t.store.insertLinksBulk([
        seeded(id, 1, { title: 'Garden tools', groupId: group.id }),
        seeded(id, 2, { title: 'Kitchen', longUrl: 'https://shop.example/GARDEN-hose', groupId: null }),
        seeded(id, 3, { title: 'Office', groupId: group.id }),
        seeded(id, 4, { title: '100% cotton' }),
      ]);
      const codes = async (query: string) =>
        listedCodes((await client.open(client.at(`?${query}`))).body).sort();
      assert.deepEqual(await codes('q=garden'), [seeded(id, 1).code, seeded(id, 2).code]);
      assert.deepEqual(await codes(`group=${group.id}`), [seeded(id, 1).code, seeded(id, 3).code]);
      assert.deepEqual(await codes(`group=${group.id}&q=GARDEN`), [seeded(id, 1).code]);
      assert.deepEqual(await codes('q=%25'), [seeded(id, 4).code], 'a % is a literal %');
      const none = await client.open(client.at('?q=nothing-like-this'));
      assert.match(none.body, /data-state="no-links"/);
    } finally {
      await t.close();
    }
  });

  it("shows each link's tags as chips that filter the list by that tag", async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      const id = await workspaceId(t, 'ada@example.com');
      await t.store.insertLinksBulk([
        seeded(id, 1, { tags: ['blog', 'spring'] }),
        seeded(id, 2, { tags: ['blog'] }),
        seeded(id, 3),
      ]);
      const all = await client.open(client.at(''));
      assert.equal([...all.body.matchAll(/class="pill tag-pill" href="[^"]*tag=blog"/g)].length, 2);
      const tagged = await client.open(client.at('?tag=blog'));
      assert.deepEqual(listedCodes(tagged.body).sort(), [seeded(id, 1).code, seeded(id, 2).code]);
      assert.equal(attribute(tagged.body, 'data-total'), '2');
      assert.deepEqual(listedCodes((await client.open(client.at('?tag=spring'))).body), [seeded(id, 1).code]);
    } finally {
      await t.close();
    }
  });

  it('tells a new workspace to create its first link, and about the API only when its plan has it', async () => {
    const t = await startTestApp();
    try {
      await t.ops.savePlan('no-api', { apiAccess: false });
      const free = await signedIn(t, 'free@example.com', 'no-api');
      const page = await free.open(free.at(''));
      assert.match(page.body, /id="create-heading">Create your first link</);
      assert.match(page.body, /data-state="no-links"/);
      assert.doesNotMatch(withoutTokens(page.body), /curl|X-API-Key|API key/);
      const api = await signedIn(t, 'api@example.com');
      const withApi = await api.open(api.at(''));
      assert.match(withApi.body, /curl https?:\/\/[^ ]+\/create/);
      await createFromDashboard(api, 'https://example.com/first');
      const next = await api.open(api.at(''));
      assert.match(next.body, /id="create-heading">Shorten a URL</);
      assert.doesNotMatch(withoutTokens(next.body), /curl/);
    } finally {
      await t.close();
    }
  });

  it('creates a link through the /create checks and lists it with its group', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.open(client.at(''));
      const group = await t.ops.createGroup('ada@example.com', 'Spring Sale');
      const code = await createFromDashboard(client, 'https://example.com/made-here', 'spring-sale');
      const link = await t.store.findLinkByCode(0, code);
      assert.equal(link?.groupId, group.id);
      assert.equal(link?.title, 'A page', 'the target was inspected');
      const page = await client.open(client.at(`?created=${code}`));
      assert.equal(attribute(page.body, 'data-done'), 'link-created');
      assert.deepEqual(listedCodes(page.body), [code]);
      assert.match(page.body, /Spring Sale/);
      assert.equal((await t.app.inject({ method: 'GET', url: `/${code}` })).statusCode, 302);
    } finally {
      await t.close();
    }
  });

  it('answers refusals with the API error codes and statuses', async () => {
    const t = await startTestApp({ plan: { urlQuota: 2 } });
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.open(client.at(''));
      await createFromDashboard(client, 'https://example.com/one');
      const cases: Array<[Record<string, string>, number, string]> = [
        [{ url: '' }, 400, '302'],
        [{ url: 'ftp://example.com/' }, 400, '300'],
        [{ url: 'https://example.com/x', group: 'nope' }, 422, '312'],
        [{ url: 'https://www.facebook.com/page' }, 422, '310'],
        [{ url: 'https://example.com/one' }, 409, '305'],
      ];
      for (const [fields, status, code] of cases) {
        const answer = await client.post(client.at('/links'), fields);
        assert.equal(answer.statusCode, status, JSON.stringify(fields));
        assert.equal(attribute(answer.body, 'data-error'), code, JSON.stringify(fields));
      }
      await createFromDashboard(client, 'https://example.com/two');
      const full = await client.post(client.at('/links'), { url: 'https://example.com/three' });
      assert.equal(full.statusCode, 403);
      assert.equal(attribute(full.body, 'data-error'), '304');
    } finally {
      await t.close();
    }
  });

  it('says a URL pointing at this Snip apart from one already shortened, both 305', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.open(client.at(''));
      const code = await createFromDashboard(client, 'https://example.com/held');
      const sentence = (body: string) =>
        /id="create-url-error"[^>]*data-error="305">([^<]*)</.exec(body)?.[1];
      const duplicate = await client.post(client.at('/links'), { url: 'https://example.com/held' });
      assert.equal(duplicate.statusCode, 409);
      const duplicateSentence = sentence(duplicate.body);
      assert.ok(duplicateSentence);
      assert.notEqual(duplicateSentence, OWN_URL_TEXT);
      for (const url of [`https://sn.ip/${code}`, 'https://sn.ip/', 'https://SN.IP/anything?x=1']) {
        const own = await client.post(client.at('/links'), { url });
        assert.equal(own.statusCode, 409, url);
        assert.equal(sentence(own.body), OWN_URL_TEXT, url);
      }
    } finally {
      await t.close();
    }
  });

  it('takes a title and tags on the create form, and keeps them when the link is refused', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'tess@example.com');
      await client.open(client.at(''));
      const made = await client.post(client.at('/links'), {
        url: 'https://example.com/titled',
        title: '  Spring launch  ',
        tags: 'launch, social, launch',
      });
      assert.equal(made.statusCode, 303, made.body);
      const code = /created=([0-9A-Za-z]{7})/.exec(String(made.headers.location))?.[1];
      assert.ok(code);
      const workspace = (await t.store.findUserByEmail('tess@example.com')) as { id: number };
      const [membership] = await t.store.workspacesOf(workspace.id);
      const link = await t.store.findLinkOfWorkspace(membership?.workspace.id ?? 0, 0, code);
      assert.equal(link?.title, 'Spring launch');
      assert.deepEqual((await t.store.tagsOf([link?.id ?? 0])).get(link?.id ?? 0), ['launch', 'social']);

      const long = 'x'.repeat(600);
      const refused = await client.post(client.at('/links'), {
        url: 'https://example.com/too-long-title',
        title: long,
        tags: 'kept',
      });
      assert.equal(refused.statusCode, 400);
      assert.equal(attribute(refused.body, 'data-error'), '300');
      assert.match(refused.body, new RegExp(`name="title"[^>]*value="${long}"`), 'the title stays as typed');
      assert.match(refused.body, /name="tags"[^>]*value="kept"/);
    } finally {
      await t.close();
    }
  });

  it('lets a plan without API access create links too, within its hourly limit', async () => {
    const t = await startTestApp();
    try {
      await t.ops.savePlan('tiny', { apiAccess: false, rateLimitPerHour: 2, urlQuota: 10 });
      const client = await signedIn(t, 'ada@example.com', 'tiny');
      await client.open(client.at(''));
      await createFromDashboard(client, 'https://example.com/1');
      await createFromDashboard(client, 'https://example.com/2');
      const limited = await client.post(client.at('/links'), { url: 'https://example.com/3' });
      assert.equal(limited.statusCode, 429);
      assert.equal(attribute(limited.body, 'data-error'), '429');
      assert.ok(Number(limited.headers['retry-after']) > 0);
    } finally {
      await t.close();
    }
  });

  it("shows links held against the quota and this hour's requests, the API's included", async () => {
    const t = await startTestApp({ plan: { urlQuota: 40, rateLimitPerHour: 90 } });
    try {
      const client = await signedIn(t, 'ada@example.com');
      const { apiKey } = await t.ops.rotateKey('ada@example.com');
      await createJson(t.app, apiKey, { url: 'https://example.com/api' });
      await createJson(t.app, apiKey, { url: 'ftp://refused.example/' });
      await client.open(client.at(''));
      await createFromDashboard(client, 'https://example.com/page');
      const page = await client.open(client.at(''));
      assert.match(page.body, /data-usage="links">2 <span class="hint">of 40</);
      assert.match(page.body, /data-usage="requests">3 <span class="hint">of 90,/);
    } finally {
      await t.close();
    }
  });

  it('deletes a link: it leaves the list and stops redirecting at once', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.open(client.at(''));
      const code = await createFromDashboard(client, 'https://example.com/gone');
      assert.equal((await t.app.inject({ method: 'GET', url: `/${code}` })).statusCode, 302, 'cached now');
      const deleted = await client.post(client.at(`/links/${code}/delete`), { back: client.at('?page=1') });
      assert.equal(deleted.statusCode, 303);
      assert.equal(deleted.headers.location, client.at('?page=1&done=link-deleted'));
      assert.equal((await t.app.inject({ method: 'GET', url: `/${code}` })).statusCode, 404);
      assert.deepEqual(listedCodes((await client.open(client.at(''))).body), []);
      assert.equal((await client.post(client.at(`/links/${code}/delete`))).statusCode, 404, 'only once');
      const offsite = await client.post(
        client.at(`/links/${await createFromDashboard(client, 'https://example.com/b')}/delete`),
        {
          back: '//evil.example/dashboard',
        },
      );
      assert.equal(offsite.headers.location, client.at('?done=link-deleted'));
    } finally {
      await t.close();
    }
  });

  it('shows one link with its chart data and QR code, and 404 for an unknown code', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.open(client.at(''));
      const code = await createFromDashboard(client, 'https://example.com/detail');
      const page = await client.open(client.at(`/links/${code}`));
      assert.equal(page.statusCode, 200);
      assert.match(page.body, new RegExp(`src="/qrcode/${code}\\.png\\?size=256"`));
      assert.match(page.body, new RegExp(`href="/qrcode/${code}\\.png\\?size=1024" download=`));
      // No clicks yet: the chart's place says what will appear there.
      assert.match(page.body, /data-state="no-clicks"/);
      await t.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER } });
      await t.app.clicks.flush();
      const clicked = await client.open(client.at(`/links/${code}`));
      assert.match(clicked.body, /<figure class="chart" data-total="1">/);
      assert.equal([...clicked.body.matchAll(/<rect class="bar"/g)].length, 1);
      assert.equal((await client.open(client.at('/links/zzzzzzz'))).statusCode, 404);
    } finally {
      await t.close();
    }
  });
});

describe('groups on the dashboard', () => {
  it('creates, renames and deletes a group; its links stay, ungrouped', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      const id = await workspaceId(t, 'ada@example.com');
      const { apiKey } = await t.ops.rotateKey('ada@example.com');
      await client.open(client.at(''));
      assert.equal((await client.post(client.at('/groups'), { name: 'Spring Sale 2026!' })).statusCode, 303);
      const [group] = await t.store.listGroups(id);
      assert.equal(group?.apiId, 'spring-sale-2026');
      const page = await client.open(client.at(''));
      assert.match(page.body, new RegExp(`data-group-id="${group?.id}"`));
      assert.match(page.body, /<code>spring-sale-2026<\/code>/);

      const made = await createJson(t.app, apiKey, {
        url: 'https://example.com/g',
        group: 'spring-sale-2026',
      });
      assert.equal(made.status, 201);
      const renamed = await client.post(client.at(`/groups/${group?.id}`), {
        name: 'Autumn',
        api_id: 'Autumn-Deals',
      });
      assert.equal(renamed.statusCode, 303);
      assert.deepEqual(
        (await t.store.listGroups(id)).map((g) => [g.id, g.name, g.apiId]),
        [[group?.id, 'Autumn', 'autumn-deals']],
      );
      const byNewId = await createJson(t.app, apiKey, {
        url: 'https://example.com/h',
        group: 'autumn-deals',
      });
      assert.equal(byNewId.status, 201);
      const byOldId = await createJson(t.app, apiKey, {
        url: 'https://example.com/i',
        group: 'spring-sale-2026',
      });
      assert.equal(byOldId.body.error, '312');

      assert.equal((await client.post(client.at(`/groups/${group?.id}/delete`))).statusCode, 303);
      assert.deepEqual(await t.store.listGroups(id), []);
      const link = await t.store.findLinkByCode(0, String(made.body.short_code));
      assert.equal(link?.groupId, null);
      assert.equal((await t.store.listLinks(id, { limit: 10 })).total, 2, 'links stay');
    } finally {
      await t.close();
    }
  });

  it('refuses a bad name, a bad identifier and one already used, changing nothing', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      const id = await workspaceId(t, 'ada@example.com');
      const news = await t.ops.createGroup('ada@example.com', 'News');
      await t.ops.createGroup('ada@example.com', 'Blog');
      await client.open(client.at(''));
      const cases: Array<[string, Record<string, string>, number, string]> = [
        [client.at('/groups'), { name: '' }, 400, 'group-name-invalid'],
        [client.at('/groups'), { name: 'Digits', api_id: '123' }, 400, 'group-api-id-invalid'],
        [client.at('/groups'), { name: 'Again', api_id: 'news' }, 409, 'api-id-taken'],
        [client.at(`/groups/${news.id}`), { name: 'News', api_id: 'blog' }, 409, 'api-id-taken'],
        [
          client.at(`/groups/${news.id}`),
          { name: 'News', api_id: 'not a slug' },
          400,
          'group-api-id-invalid',
        ],
      ];
      for (const [path, fields, status, code] of cases) {
        const answer = await client.post(path, fields);
        assert.equal(answer.statusCode, status, `${path} ${JSON.stringify(fields)}`);
        assert.equal(attribute(answer.body, 'data-error'), code);
      }
      assert.deepEqual(
        (await t.store.listGroups(id)).map((g) => g.apiId),
        ['news', 'blog'],
      );
    } finally {
      await t.close();
    }
  });
});

describe('ownership', () => {
  it("never lets one account see or change another's links and groups", async () => {
    const t = await startTestApp();
    try {
      const ada = await signedIn(t, 'ada@example.com');
      const bob = await signedIn(t, 'bob@example.com');
      await ada.open(ada.at(''));
      await bob.open(bob.at(''));
      const adaGroup = await t.ops.createGroup('ada@example.com', 'Private');
      const code = await createFromDashboard(ada, 'https://example.com/ada', String(adaGroup.id));

      assert.equal((await bob.open(bob.at(`/links/${code}`))).statusCode, 404);
      assert.equal((await bob.post(bob.at(`/links/${code}/delete`))).statusCode, 404);
      const renamed = await bob.post(bob.at(`/groups/${adaGroup.id}`), { name: 'Mine', api_id: 'mine' });
      assert.equal(renamed.statusCode, 404);
      assert.equal((await bob.post(bob.at(`/groups/${adaGroup.id}/delete`))).statusCode, 404);
      const listed = await bob.open(bob.at(`?group=${adaGroup.id}`));
      assert.deepEqual(listedCodes(listed.body), []);
      assert.ok(!listed.body.includes(code));
      assert.ok(!(await bob.open(bob.at(''))).body.includes('Private'));
      const intoForeignGroup = await bob.post(bob.at('/links'), {
        url: 'https://example.com/b',
        group: String(adaGroup.id),
      });
      assert.equal(attribute(intoForeignGroup.body, 'data-error'), '312');

      // Nothing changed for Ada.
      assert.equal((await t.app.inject({ method: 'GET', url: `/${code}` })).statusCode, 302);
      const adaId = await workspaceId(t, 'ada@example.com');
      assert.deepEqual(await t.store.listGroups(adaId), [adaGroup]);
      assert.equal((await t.store.findLinkOfWorkspace(adaId, 0, code))?.groupId, adaGroup.id);
      assert.deepEqual(listedCodes((await ada.open(ada.at(''))).body), [code]);
    } finally {
      await t.close();
    }
  });
});

describe('CSRF on the signed-in forms', () => {
  it('refuses every form without the session token, or with a wrong one, changing nothing', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      const id = await workspaceId(t, 'ada@example.com');
      await client.open(client.at(''));
      const group = await t.ops.createGroup('ada@example.com', 'News');
      const code = await createFromDashboard(client, 'https://example.com/keep');
      const keyBefore = await t.store.findMainKey(id);
      await keyWithScopes(t.store, 'ada@example.com', ['links:read'], 'script');
      const keysBefore = await t.store.listLiveKeys(id);
      const further = keysBefore.find((key) => !key.main);
      const linkBefore = await t.store.findLinkByCode(0, code);
      const other = await signedIn(t, 'bob@example.com');
      const forms: Array<[string, Record<string, string>]> = [
        [client.at('/links'), { url: 'https://example.com/new', slug: 'forged' }],
        [client.at(`/links/${code}`), { url: 'https://example.com/changed', title: 'Forged', group: '' }],
        [client.at(`/links/${code}/delete`), {}],
        [client.at('/groups'), { name: 'Other' }],
        [client.at(`/groups/${group.id}`), { name: 'Renamed', api_id: 'renamed' }],
        [client.at(`/groups/${group.id}/delete`), {}],
        [client.at('/keys/main'), { understand: 'yes' }],
        [client.at('/keys'), { name: 'Forged', scopes: 'links:write' }],
        [client.at(`/keys/${further?.id}/revoke`), {}],
        ['/account/password', { current: PASSWORD, password: 'another password' }],
        ['/logout', {}],
      ];
      for (const [path, fields] of forms) {
        for (const token of ['', 'x'.repeat(43), other.csrf]) {
          const answer = await client.post(path, { ...fields, _csrf: token });
          assert.equal(answer.statusCode, 403, `${path} with token "${token}"`);
        }
      }
      assert.deepEqual(listedCodes((await client.open(client.at(''))).body), [code]);
      assert.deepEqual(await t.store.listGroups(id), [group]);
      assert.deepEqual(await t.store.findMainKey(id), keyBefore);
      assert.deepEqual(await t.store.listLiveKeys(id), keysBefore);
      assert.deepEqual(await t.store.findLinkByCode(0, code), linkBefore);
      assert.equal(await t.store.findLinkByCode(0, 'forged'), undefined);
      assert.equal((await new PageClient(t.app).signIn('ada@example.com', PASSWORD)).statusCode, 303);
    } finally {
      await t.close();
    }
  });
});
