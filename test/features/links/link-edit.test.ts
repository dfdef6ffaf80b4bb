import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OWN_URL_TEXT } from '../../../src/features/links/pages/link-field-errors.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { FakeInspector, startTestApp, type TestApp } from '../../helper.ts';

/** Changing a link in place on its page, and custom codes on the dashboard's create form. */

const PASSWORD = 'correct horse battery';

async function signedIn(t: TestApp, email: string, plan = 'tester'): Promise<PageClient> {
  await t.ops.createAccount(email, plan, PASSWORD);
  const client = new PageClient(t.app);
  assert.equal((await client.signIn(email, PASSWORD)).statusCode, 303);
  return client;
}

/** Creates a link through the dashboard form; answers its code. */
async function created(client: PageClient, fields: Record<string, string>): Promise<string> {
  const answer = await client.post(client.at('/links'), fields);
  assert.equal(answer.statusCode, 303, answer.body);
  const code = /created=([A-Za-z0-9_-]+)$/.exec(String(answer.headers.location))?.[1];
  assert.ok(code);
  return code;
}

/** Where the short URL sends a visitor now. */
async function target(t: TestApp, code: string): Promise<string | undefined> {
  const answer = await t.app.inject({ method: 'GET', url: `/${code}` });
  return answer.statusCode === 302 ? String(answer.headers.location) : undefined;
}

describe('changing a link on its page', () => {
  it('sets, reorders and clears its tags from the Tags field; a form without it keeps them', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      const code = await created(client, { url: 'https://example.com/tagged' });
      const link = await t.store.findLinkByCode(0, code);
      assert.ok(link);
      const tagsNow = async () => [...((await t.store.tagsOf([link.id])).get(link.id) ?? [])].sort();
      const send = (fields: Record<string, string>) =>
        client.post(client.at(`/links/${code}`), {
          url: link.longUrl,
          title: link.title,
          group: '',
          ...fields,
        });

      const set = await send({ tags: ' spring, launch ,, spring ' });
      assert.equal(set.headers.location, client.at(`/links/${code}?done=saved`));
      assert.deepEqual(await tagsNow(), ['launch', 'spring']);
      const page = await client.open(client.at(`/links/${code}?edit`));
      assert.match(page.body, /name="tags"[^>]*value="launch, spring"/);

      const same = await send({ tags: 'spring, launch' });
      assert.equal(same.headers.location, client.at(`/links/${code}?done=unchanged`));
      const kept = await send({});
      assert.equal(kept.headers.location, client.at(`/links/${code}?done=unchanged`));
      assert.deepEqual(await tagsNow(), ['launch', 'spring']);

      await send({ tags: '' });
      assert.deepEqual(await tagsNow(), []);
    } finally {
      await t.close();
    }
  });

  it('turns public stats on and off with its checkbox; a form without the box keeps it', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'pia@example.com');
      const code = await created(client, { url: 'https://example.com/public' });
      const link = await t.store.findLinkByCode(0, code);
      assert.ok(link);
      const send = (fields: Record<string, string>) =>
        client.post(client.at(`/links/${code}`), {
          url: link.longUrl,
          title: link.title,
          group: '',
          ...fields,
        });
      const publicPage = async () => (await t.app.inject({ method: 'GET', url: `/${code}+` })).statusCode;
      const editing = await client.open(client.at(`/links/${code}?edit`));
      assert.match(editing.body, /<input type="checkbox" name="public_stats" value="1">/);
      assert.equal(await publicPage(), 404);

      const on = await send({ public_stats_shown: '1', public_stats: '1' });
      assert.equal(on.headers.location, client.at(`/links/${code}?done=saved`));
      assert.equal((await t.store.findLinkByCode(0, code))?.publicStats, true);
      assert.equal(await publicPage(), 200);
      const page = await client.open(client.at(`/links/${code}?edit`));
      assert.match(page.body, /name="public_stats" value="1" checked/);
      const shown = await client.open(client.at(`/links/${code}`));
      assert.match(shown.body, /data-fact="public-stats">anyone can see them/);

      const kept = await send({});
      assert.equal(kept.headers.location, client.at(`/links/${code}?done=unchanged`));
      await send({ public_stats_shown: '1' });
      assert.equal((await t.store.findLinkByCode(0, code))?.publicStats, false);
      assert.equal(await publicPage(), 404);
    } finally {
      await t.close();
    }
  });

  it('changes the target, the title and the group; the short URL follows at once', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.open(client.at(''));
      const group = await t.ops.createGroup('ada@example.com', 'Spring');
      const code = await created(client, { url: 'https://example.com/old' });
      assert.equal(await target(t, code), 'https://example.com/old', 'cached now');

      const view = await client.open(client.at(`/links/${code}`));
      assert.doesNotMatch(view.body, /name="url"/, 'the edit form waits behind Edit');
      assert.match(view.body, new RegExp(`href="${client.at(`/links/${code}\\?edit`)}" data-edit`));
      const page = await client.open(client.at(`/links/${code}?edit`));
      assert.match(page.body, new RegExp(`<form method="post" action="${client.at(`/links/${code}`)}"`));
      assert.match(page.body, /name="url"[^>]*value="https:\/\/example\.com\/old"/);
      const saved = await client.post(client.at(`/links/${code}`), {
        url: 'https://example.com/new',
        title: 'Spring landing page',
        group: String(group.id),
      });
      assert.equal(saved.statusCode, 303, saved.body);
      assert.equal(saved.headers.location, client.at(`/links/${code}?done=saved&target=new`));
      assert.equal(await target(t, code), 'https://example.com/new');

      const after = await client.open(client.at(`/links/${code}?done=saved&target=new`));
      assert.equal(attribute(after.body, 'data-done'), 'saved');
      assert.match(after.body, /<h1>Spring landing page<\/h1>/);
      assert.match(
        after.body,
        new RegExp(`class="pill group-pill" href="${client.at('')}\\?group=${group.id}"[^>]*>.*?Spring</a>`),
      );
      const link = await t.store.findLinkByCode(0, code);
      assert.equal(link?.longUrl, 'https://example.com/new');
      assert.equal(link?.groupId, group.id);

      // Back out of the group, the rest as it is.
      const ungrouped = await client.post(client.at(`/links/${code}`), {
        url: 'https://example.com/new',
        title: 'Spring landing page',
        group: '',
      });
      assert.equal(ungrouped.statusCode, 303);
      assert.equal((await t.store.findLinkByCode(0, code))?.groupId, null);
    } finally {
      await t.close();
    }
  });

  it('changes a title alone without fetching the target, and saves nothing when nothing changed', async () => {
    const inspector = new FakeInspector();
    const t = await startTestApp({ inspector });
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.open(client.at(''));
      const code = await created(client, { url: 'https://example.com/page' });
      const fetched = inspector.fetched.length;
      // The target would now be refused (306) if it were checked again.
      inspector.outcome = () => ({ ok: false, code: '306', reason: 'connection refused', cause: 'refused' });
      const saved = await client.post(client.at(`/links/${code}`), {
        url: 'https://example.com/page',
        title: 'Renamed',
        group: '',
      });
      assert.equal(saved.statusCode, 303, saved.body);
      assert.equal(inspector.fetched.length, fetched);
      assert.equal((await t.store.findLinkByCode(0, code))?.title, 'Renamed');
      const same = await client.post(client.at(`/links/${code}`), {
        url: 'https://example.com/page',
        title: 'Renamed',
        group: '',
      });
      assert.equal(same.headers.location, client.at(`/links/${code}?done=unchanged`));
    } finally {
      await t.close();
    }
  });

  it('says "Saved" without a new target when the target stayed, and names the new target when it changed', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.open(client.at(''));
      const code = await created(client, { url: 'https://example.com/kept' });
      const page = client.at(`/links/${code}`);
      const notice = (body: string) =>
        /<p class="notice" role="status" data-done="saved">([^<]*)</.exec(body)?.[1];

      const titled = await client.post(page, {
        url: 'https://example.com/kept',
        title: 'New title',
        group: '',
      });
      assert.equal(titled.headers.location, `${page}?done=saved`);
      const retargeted = await client.post(page, {
        url: 'https://example.com/moved',
        title: 'New title',
        group: '',
      });
      assert.equal(retargeted.headers.location, `${page}?done=saved&target=new`);

      const savedOnly = notice((await client.open(`${page}?done=saved`)).body);
      const savedTarget = notice((await client.open(`${page}?done=saved&target=new`)).body);
      assert.ok(savedOnly && savedTarget);
      assert.notEqual(savedOnly, savedTarget);
      assert.ok(savedTarget.startsWith(savedOnly), 'the target sentence comes after the same "Saved."');
    } finally {
      await t.close();
    }
  });

  it('refuses a title over 500 characters in words, keeping all of it in the field (no silent cut)', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.open(client.at(''));
      const code = await created(client, { url: 'https://example.com/titled' });
      const before = await t.store.findLinkByCode(0, code);
      const form = await client.open(client.at(`/links/${code}?edit`));
      assert.doesNotMatch(form.body, /name="title"[^>]*maxlength/, 'the browser would cut a pasted title');

      const long = 'Spring '.repeat(86).slice(0, 600);
      const refused = await client.post(client.at(`/links/${code}`), {
        url: 'https://example.com/titled',
        title: long,
        group: '',
      });
      assert.equal(refused.statusCode, 400);
      const [, shownCode, message] = /data-error="([^"]*)">([^<]*)</.exec(refused.body) ?? [];
      assert.equal(shownCode, '300');
      assert.match(message ?? '', /\b600\b/, 'says how long the title is');
      assert.match(refused.body, new RegExp(`name="title"[^>]*value="${long}"`));
      assert.deepEqual(await t.store.findLinkByCode(0, code), before);
    } finally {
      await t.close();
    }
  });

  it('says a past expiry in words on the create and edit forms; the code stays 300', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.open(client.at(''));
      const shown = (body: string) => /data-error="([^"]*)">([^<]*)</.exec(body)?.slice(1) ?? [];
      const made = await client.post(client.at('/links'), {
        url: 'https://example.com/late',
        expires_at: '2001-01-01T10:00',
      });
      assert.equal(made.statusCode, 400);
      const [madeCode, madeMessage] = shown(made.body);
      assert.equal(madeCode, '300');
      assert.doesNotMatch(madeMessage ?? '', /expires_at/);
      assert.match(madeMessage ?? '', /expiry/i);

      const code = await created(client, { url: 'https://example.com/late' });
      const edited = await client.post(client.at(`/links/${code}`), {
        url: 'https://example.com/late',
        group: '',
        expires_at: '2001-01-01T10:00',
      });
      assert.equal(edited.statusCode, 400);
      const [editCode, editMessage] = shown(edited.body);
      assert.equal(editCode, '300');
      assert.equal(editMessage, madeMessage);
      assert.equal((await t.store.findLinkByCode(0, code))?.expiresAt, null);
      // The API keeps its code.
      const api = await t.app.inject({
        method: 'POST',
        url: '/api/v1/links',
        headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
        payload: JSON.stringify({ url: 'https://example.com/late', expires_at: '2001-01-01T10:00:00Z' }),
      });
      assert.equal(api.statusCode, 400);
      assert.equal(api.json().code, '300');
    } finally {
      await t.close();
    }
  });

  it('says a new target pointing at this Snip apart from one already shortened (305)', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.open(client.at(''));
      await created(client, { url: 'https://example.com/taken' });
      const code = await created(client, { url: 'https://example.com/mine' });
      const sentence = (body: string) => /id="edit-url-error"[^>]*data-error="305">([^<]*)</.exec(body)?.[1];
      const own = await client.post(client.at(`/links/${code}`), { url: `https://sn.ip/${code}`, group: '' });
      assert.equal(own.statusCode, 409);
      assert.equal(sentence(own.body), OWN_URL_TEXT);
      const taken = await client.post(client.at(`/links/${code}`), {
        url: 'https://example.com/taken',
        group: '',
      });
      assert.equal(taken.statusCode, 409);
      assert.ok(sentence(taken.body));
      assert.notEqual(sentence(taken.body), OWN_URL_TEXT);
    } finally {
      await t.close();
    }
  });

  it('refuses a social-network target or a foreign group, keeping the input and changing nothing', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.open(client.at(''));
      const foreign = await t.ops.createGroup(t.email, 'Not yours');
      const code = await created(client, { url: 'https://example.com/kept' });
      const before = await t.store.findLinkByCode(0, code);
      assert.equal(await target(t, code), 'https://example.com/kept');

      const social = await client.post(client.at(`/links/${code}`), {
        url: 'https://facebook.com/x',
        title: 'Typed title',
        group: '',
      });
      assert.equal(social.statusCode, 422);
      assert.equal(attribute(social.body, 'data-error'), '310');
      assert.match(social.body, /name="url"[^>]*value="https:\/\/facebook\.com\/x"/);
      assert.match(social.body, /name="title"[^>]*value="Typed title"/);

      const grouped = await client.post(client.at(`/links/${code}`), {
        url: 'https://example.com/kept',
        title: '',
        group: String(foreign.id),
      });
      assert.equal(grouped.statusCode, 422);
      assert.equal(attribute(grouped.body, 'data-error'), '312');

      const malformed = await client.post(client.at(`/links/${code}`), {
        url: 'ftp://example.com/',
        group: '',
      });
      assert.equal(malformed.statusCode, 400);
      assert.equal(attribute(malformed.body, 'data-error'), '300');

      assert.deepEqual(await t.store.findLinkByCode(0, code), before);
      assert.equal(await target(t, code), 'https://example.com/kept');
    } finally {
      await t.close();
    }
  });

  it("answers 404 for another account's link, and 429 once the hour's window is spent", async () => {
    const t = await startTestApp({ plan: { rateLimitPerHour: 2 } });
    try {
      const ada = await signedIn(t, 'ada@example.com');
      const bob = await signedIn(t, 'bob@example.com');
      await ada.open(ada.at(''));
      await bob.open(bob.at(''));
      const code = await created(ada, { url: 'https://example.com/ada' });
      const taken = await bob.post(bob.at(`/links/${code}`), { url: 'https://example.com/bob', group: '' });
      assert.equal(taken.statusCode, 404);
      assert.equal(await target(t, code), 'https://example.com/ada');

      const first = await ada.post(ada.at(`/links/${code}`), {
        url: 'https://example.com/ada',
        title: 'One',
      });
      assert.equal(first.statusCode, 303);
      const limited = await ada.post(ada.at(`/links/${code}`), {
        url: 'https://example.com/ada',
        title: 'Two',
      });
      assert.equal(limited.statusCode, 429);
      assert.equal(attribute(limited.body, 'data-error'), '429');
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assert.equal((await t.store.findLinkByCode(0, code))?.title, 'One');
    } finally {
      await t.close();
    }
  });

  it('deletes through the same editor: 404 for a link that is gone or not the account’s', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.open(client.at(''));
      const code = await created(client, { url: 'https://example.com/bye' });
      assert.equal((await client.post(client.at(`/links/${code}/delete`))).statusCode, 303);
      assert.equal(await target(t, code), undefined);
      assert.equal(
        (await client.post(client.at(`/links/${code}`), { url: 'https://example.com/x' })).statusCode,
        404,
      );
      assert.equal((await client.post(client.at(`/links/${code}/delete`))).statusCode, 404);
    } finally {
      await t.close();
    }
  });
});

describe('a custom code on the dashboard', () => {
  it('creates the link under the code asked for', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.open(client.at(''));
      const code = await created(client, { url: 'https://example.com/sale', slug: ' Spring-sale_26 ' });
      assert.equal(code, 'Spring-sale_26');
      const link = await t.store.findLinkByCode(0, 'Spring-sale_26');
      assert.equal(link?.longUrl, 'https://example.com/sale');
      assert.equal(await target(t, 'Spring-sale_26'), 'https://example.com/sale');
      const page = await client.open(client.at(`?created=${code}`));
      assert.equal(attribute(page.body, 'data-done'), 'link-created');
      assert.match(page.body, /<tr data-code="Spring-sale_26">/);
      // Without one, a code is drawn.
      assert.match(await created(client, { url: 'https://example.com/drawn', slug: '' }), /^[0-9A-Za-z]{7}$/);
    } finally {
      await t.close();
    }
  });

  it('answers 409 (313) for a code taken, deleted or reserved, and 400 (300) for a malformed one', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.open(client.at(''));
      await created(client, { url: 'https://example.com/first', slug: 'launch' });
      const gone = await created(client, { url: 'https://example.com/gone', slug: 'old-news' });
      assert.equal((await client.post(client.at(`/links/${gone}/delete`))).statusCode, 303);
      const cases: Array<[string, number, string]> = [
        ['launch', 409, '313'],
        ['old-news', 409, '313'],
        ['dashboard', 409, '313'],
        ['Dashboard', 409, '313'],
        ['ab', 400, '300'],
        ['not a code', 400, '300'],
      ];
      for (const [slug, status, error] of cases) {
        const answer = await client.post(client.at('/links'), { url: 'https://example.com/second', slug });
        assert.equal(answer.statusCode, status, slug);
        assert.equal(attribute(answer.body, 'data-error'), error, slug);
        assert.match(answer.body, new RegExp(`name="slug"[^>]*value="${slug}"`), 'the input is kept');
        assert.match(answer.body, /name="url"[^>]*value="https:\/\/example\.com\/second"/);
      }
      const account = await t.store.findAccountByEmail('ada@example.com');
      assert.equal((await t.store.listLinks(account?.workspace.id ?? 0, { limit: 10 })).total, 1);
    } finally {
      await t.close();
    }
  });
});
