import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { FakeInspector, send, startTestApp, type TestApp } from '../../helper.ts';

/** Links through /api/v1 (docs/api.md §7.2–7.3): create, read, list, change, delete, export. */

type LinkBody = Record<string, unknown>;

describe('links on /api/v1', () => {
  let t: TestApp;
  let inspector: FakeInspector;
  let other: string;
  let n = 0;
  /** A URL no test used before. */
  const fresh = () => `https://example.com/page-${++n}`;

  before(async () => {
    inspector = new FakeInspector();
    t = await startTestApp({ inspector });
    other = (await t.ops.createAccount('other@example.com', 'tester')).apiKey;
  });
  after(() => t.close());
  beforeEach(() => {
    inspector.outcome = (url) => ({ ok: true, title: 'A page', finalUrl: url.href, status: 200 });
  });

  const create = (body: unknown, key = t.apiKey) => callApi(t.app, 'POST', '/links', { key, body });
  async function created(body: LinkBody = {}, key = t.apiKey): Promise<LinkBody> {
    const answer = await create({ url: fresh(), ...body }, key);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body;
  }

  describe('POST /links', () => {
    it('creates a link with slug, title and tags: 201, Location, the resource', async () => {
      const url = fresh();
      const answer = await create({
        url,
        slug: 'Spring_sale-26',
        title: 'Sale',
        tags: ['promo', 'Q4', 'promo'],
      });
      assert.equal(answer.status, 201);
      assert.equal(answer.headers.location, 'https://sn.ip/api/v1/links/Spring_sale-26');
      assert.ok(answer.headers['ratelimit-remaining']);
      const link = answer.body;
      assert.equal(link.short_code, 'Spring_sale-26');
      assert.equal(link.short_url, 'https://sn.ip/Spring_sale-26');
      assert.equal(link.qr_code, 'https://sn.ip/qrcode/Spring_sale-26.png');
      assert.equal(link.long_url, url);
      assert.equal(link.title, 'Sale', 'the title given wins over the page title');
      assert.deepEqual(link.tags, ['Q4', 'promo']);
      assert.equal(link.group, null);
      assert.match(String(link.created_at), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.equal(link.updated_at, link.created_at);
      assert.equal(link.expires_at, null);
      assert.equal(link.max_clicks, null);
      assert.equal(link.has_password, false);
      assert.deepEqual(link.rules, []);
      assert.equal(link.clicks, 0);
      assert.equal(link.unique_visitors, 0);
      assert.equal(link.bot_hits, 0);
      // The slug redirects at once.
      const redirect = await send(t.app, { method: 'GET', url: '/Spring_sale-26' });
      assert.equal(redirect.status, 302);
      assert.equal(redirect.headers.location, url);
    });

    it('draws a 7-character code without a slug and takes the page title', async () => {
      const link = await created();
      assert.match(String(link.short_code), /^[0-9A-Za-z]{7}$/);
      assert.equal(link.title, 'A page');
    });

    it('puts the link in a group named by ID or API identifier; 312 for a group of another account', async () => {
      const group = await callApi(t.app, 'POST', '/groups', { key: t.apiKey, body: { name: 'Launch' } });
      assert.equal(group.status, 201);
      const byId = await created({ group: group.body.id });
      assert.deepEqual(byId.group, { id: group.body.id, api_id: 'launch', name: 'Launch' });
      const byApiId = await created({ group: 'launch' });
      assert.equal((byApiId.group as LinkBody).id, group.body.id);
      assertProblem(await create({ url: fresh(), group: 'launch' }, other), 422, '312');
    });

    it('refuses a slug of the wrong shape with 300 and a reserved one with 313', async () => {
      for (const slug of ['ab', 'a'.repeat(65), 'a/b', 'a.b', 'a%20b', 'héllo', 'space here', '']) {
        assertProblem(await create({ url: fresh(), slug }), 400, '300');
      }
      for (const slug of ['api', 'docs', 'Dashboard', 'QRCODE', 'healthz', 'openapi']) {
        const answer = await create({ url: fresh(), slug });
        if (slug === 'openapi') assert.equal(answer.status, 201, 'only whole path segments are reserved');
        else assertProblem(answer, 409, '313');
      }
      assert.equal((await create({ url: fresh(), slug: 'a'.repeat(64) })).status, 201);
      assert.equal((await create({ url: fresh(), slug: 'abc' })).status, 201);
    });

    it('refuses a slug any link ever had with 313, deleted ones included; slugs are case-sensitive', async () => {
      await created({ slug: 'taken-slug' });
      assertProblem(await create({ url: fresh(), slug: 'taken-slug' }), 409, '313');
      assertProblem(await create({ url: fresh(), slug: 'taken-slug' }, other), 409, '313');
      assert.equal((await create({ url: fresh(), slug: 'Taken-Slug' })).status, 201);
      await created({ slug: 'gone-slug' });
      assert.equal((await callApi(t.app, 'DELETE', '/links/gone-slug', { key: t.apiKey })).status, 204);
      assertProblem(await create({ url: fresh(), slug: 'gone-slug' }), 409, '313');
    });

    it('checks in the order of /create: url, group, slug, fields, social, duplicate, inspection', async () => {
      await created({ slug: 'order-slug' });
      const fetched = inspector.fetched.length;
      // No url (302) before a bad group; a bad group (312) before a taken slug (313).
      assertProblem(await create({ group: 'nope', slug: 'order-slug' }), 400, '302');
      assertProblem(await create({ url: 'ftp://x', group: 'nope' }), 400, '300');
      assertProblem(await create({ url: fresh(), group: 'nope', slug: 'order-slug' }), 422, '312');
      // The slug (313) before the social check (310), which comes before the inspection.
      assertProblem(await create({ url: 'https://facebook.com/x', slug: 'order-slug' }), 409, '313');
      assertProblem(await create({ url: 'https://facebook.com/x', slug: 'free-slug-1' }), 422, '310');
      assert.equal(inspector.fetched.length, fetched, 'nothing refused before it was fetched');
      const dup = await created();
      assertProblem(await create({ url: dup.long_url, slug: 'free-slug-2' }), 409, '305');
      inspector.outcome = () => ({ ok: false, code: '307', reason: 'the page answers 404' });
      assertProblem(await create({ url: fresh(), slug: 'free-slug-3' }), 422, '307');
      // A refused create issues nothing: the slug is still free.
      inspector.outcome = (url) => ({ ok: true, title: 'A page', finalUrl: url.href, status: 200 });
      assert.equal((await create({ url: fresh(), slug: 'free-slug-3' })).status, 201);
    });

    it('refuses fields of the wrong type or over their limits with 300', async () => {
      const bodies: unknown[] = [
        { url: 42 },
        { url: fresh(), slug: 12345 },
        { url: fresh(), title: 7 },
        { url: fresh(), title: 'x'.repeat(501) },
        { url: fresh(), title: 'bell\u0007' },
        { url: fresh(), tags: 'promo' },
        { url: fresh(), tags: [1] },
        { url: fresh(), tags: [''] },
        { url: fresh(), tags: ['a,b'] },
        { url: fresh(), tags: ['x'.repeat(51)] },
        { url: fresh(), tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
        { url: fresh(), group: true },
        { url: fresh(), unknown: 1 },
        [],
        'null',
      ];
      for (const body of bodies) assertProblem(await create(body), 400, '300');
      assertProblem(
        await callApi(t.app, 'POST', '/links', {
          key: t.apiKey,
          body: '',
          headers: { 'content-type': 'application/json' },
        }),
        400,
        '300',
      );
      assertProblem(await callApi(t.app, 'POST', '/links', { key: t.apiKey, body: '{"url":' }), 400, '300');
      const oversized = JSON.stringify({ url: fresh(), title: 'x'.repeat(70_000) });
      assertProblem(await callApi(t.app, 'POST', '/links', { key: t.apiKey, body: oversized }), 400, '300');
      const form = await callApi(t.app, 'POST', '/links', {
        key: t.apiKey,
        body: `url=${encodeURIComponent(fresh())}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assertProblem(form, 400, '300');
    });

    it('refuses link rules of the wrong shape with 300 and keeps valid ones; null is none', async () => {
      const future = new Date(Date.now() + 86_400_000).toISOString();
      const rule = { if: { device: 'ios' }, url: 'https://example.com/ios' };
      const refused: LinkBody[] = [
        { expires_at: '2020-01-01T00:00:00Z' },
        { expires_at: 'tomorrow' },
        { expires_at: 5 },
        { max_clicks: 0 },
        { max_clicks: -3 },
        { max_clicks: 1.5 },
        { max_clicks: '10' },
        { max_clicks: 1_000_000_001 },
        { password: '' },
        { password: 'x'.repeat(10_000) },
        { rules: [{ if: { device: 'fridge' }, url: 'https://example.com/' }] },
        { rules: [{ if: {}, url: 'https://example.com/' }] },
        { rules: Array.from({ length: 21 }, () => rule) },
        { rules: 'none' },
      ];
      for (const fields of refused) assertProblem(await create({ url: fresh(), ...fields }), 400, '300');
      const none = await created({ expires_at: null, max_clicks: null, password: null, rules: [] });
      assert.deepEqual(
        [none.expires_at, none.max_clicks, none.has_password, none.rules],
        [null, null, false, []],
      );
      const all = await created({
        expires_at: future,
        max_clicks: 10,
        password: 'secret word',
        rules: [rule],
      });
      assert.deepEqual(
        [all.expires_at, all.max_clicks, all.has_password, all.rules],
        [future, 10, true, [rule]],
      );
      const cleared = await callApi(t.app, 'PATCH', `/links/${all.short_code}`, {
        key: t.apiKey,
        body: { expires_at: null, max_clicks: null, password: null, rules: null },
      });
      assert.deepEqual(
        [cleared.body.expires_at, cleared.body.max_clicks, cleared.body.has_password, cleared.body.rules],
        [null, null, false, []],
      );
    });

    it('keeps to the quota (304) and counts a refused request in the window', async () => {
      const small = await startTestApp({ plan: { urlQuota: 1 } });
      try {
        assert.equal(
          (await callApi(small.app, 'POST', '/links', { key: small.apiKey, body: { url: fresh() } })).status,
          201,
        );
        const full = await callApi(small.app, 'POST', '/links', {
          key: small.apiKey,
          body: { url: fresh() },
        });
        assertProblem(full, 403, '304');
        assert.equal(full.headers['ratelimit-remaining'], String(1000 - 2));
      } finally {
        await small.close();
      }
    });
  });

  describe('GET /links/{code}', () => {
    it('answers the link of the account, 314 for another account, an unknown or a deleted code', async () => {
      const link = await created({ slug: 'read-me' });
      const answer = await callApi(t.app, 'GET', '/links/read-me', { key: t.apiKey });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, link);
      assertProblem(await callApi(t.app, 'GET', '/links/read-me', { key: other }), 404, '314');
      assertProblem(await callApi(t.app, 'GET', '/links/nothing', { key: t.apiKey }), 404, '314');
      assertProblem(await callApi(t.app, 'GET', `/links/${'x'.repeat(65)}`, { key: t.apiKey }), 400, '300');
      await callApi(t.app, 'DELETE', '/links/read-me', { key: t.apiKey });
      assertProblem(await callApi(t.app, 'GET', '/links/read-me', { key: t.apiKey }), 404, '314');
    });

    it('shows the counts of the redirect', async () => {
      await created({ slug: 'counted' });
      await send(t.app, {
        method: 'GET',
        url: '/counted',
        headers: { 'user-agent': 'Mozilla/5.0 Firefox/140.0' },
      });
      await send(t.app, {
        method: 'GET',
        url: '/counted',
        headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0' },
      });
      await t.app.clicks.flush();
      const link = (await callApi(t.app, 'GET', '/links/counted', { key: t.apiKey })).body;
      assert.equal(link.clicks, 1);
      assert.equal(link.bot_hits, 1);
    });
  });

  describe('PATCH /links/{code}', () => {
    const patch = (code: string, body: unknown, key = t.apiKey) =>
      callApi(t.app, 'PATCH', `/links/${code}`, { key, body });

    it('changes title, tags and group; null ungroups; the code and created_at stay', async () => {
      const link = await created({ slug: 'patch-me', tags: ['a'] });
      const group = await callApi(t.app, 'POST', '/groups', { key: t.apiKey, body: { name: 'Patched' } });
      const changed = await patch('patch-me', { title: 'New title', tags: ['b', 'c'], group: 'patched' });
      assert.equal(changed.status, 200);
      assert.equal(changed.body.short_code, 'patch-me');
      assert.equal(changed.body.title, 'New title');
      assert.deepEqual(changed.body.tags, ['b', 'c']);
      assert.equal((changed.body.group as LinkBody).id, group.body.id);
      assert.equal(changed.body.created_at, link.created_at);
      assert.ok(String(changed.body.updated_at) >= String(link.updated_at));
      const ungrouped = await patch('patch-me', { group: null });
      assert.equal(ungrouped.body.group, null);
      assert.equal(ungrouped.body.title, 'New title', 'what is left out stays');
    });

    it('re-checks a new url, inspection included, and redirects to it at once', async () => {
      await created({ slug: 'moving' });
      await send(t.app, { method: 'GET', url: '/moving' }); // cached by the redirect now
      const target = fresh();
      const fetched = inspector.fetched.length;
      const moved = await patch('moving', { url: target });
      assert.equal(moved.status, 200);
      assert.equal(moved.body.long_url, target);
      assert.equal(inspector.fetched.length, fetched + 1, 'the new target was inspected');
      const redirect = await send(t.app, { method: 'GET', url: '/moving' });
      assert.equal(redirect.headers.location, target);
    });

    it('refuses a bad change with its code and changes nothing', async () => {
      const link = await created({ slug: 'steady', title: 'Steady', tags: ['keep'] });
      const holder = await created();
      const refusals: Array<[unknown, number, string]> = [
        [{ url: '' }, 400, '300'],
        [{ url: 'javascript:alert(1)' }, 400, '300'],
        [{ url: 'https://facebook.com/x', title: 'changed' }, 422, '310'],
        [{ url: holder.long_url, title: 'changed' }, 409, '305'],
        [{ url: 'https://sn.ip/abc' }, 409, '305'],
        [{ group: 'no-such-group', title: 'changed' }, 422, '312'],
        [{ title: 'changed', tags: ['x'.repeat(51)] }, 400, '300'],
        [{ title: 'changed', max_clicks: 0 }, 400, '300'],
        [{ title: 'changed', expires_at: '2001-01-01T00:00:00Z' }, 400, '300'],
        [{ short_code: 'other' }, 400, '300'],
        [{}, 400, '300'],
        [{ title: 5 }, 400, '300'],
      ];
      for (const [body, status, code] of refusals) assertProblem(await patch('steady', body), status, code);
      inspector.outcome = () => ({ ok: false, code: '307', reason: 'the page answers 404' });
      assertProblem(await patch('steady', { url: fresh(), title: 'changed' }), 422, '307');
      const now = await callApi(t.app, 'GET', '/links/steady', { key: t.apiKey });
      assert.deepEqual(now.body, link);
    });

    it('answers 314 for another account, an unknown or a deleted link', async () => {
      await created({ slug: 'theirs' });
      assertProblem(await patch('theirs', { title: 'x' }, other), 404, '314');
      assertProblem(await patch('unknown-code', { title: 'x' }), 404, '314');
      await callApi(t.app, 'DELETE', '/links/theirs', { key: t.apiKey });
      assertProblem(await patch('theirs', { title: 'x' }), 404, '314');
    });

    it('keeps its own url as no duplicate, and a url change without inspection when it is the same', async () => {
      const link = await created({ slug: 'same-url' });
      const fetched = inspector.fetched.length;
      const same = await patch('same-url', { url: link.long_url, title: 'Same' });
      assert.equal(same.status, 200);
      assert.equal(inspector.fetched.length, fetched);
    });
  });

  describe('DELETE /links/{code}', () => {
    it('answers 204; the code redirects nowhere and is never issued again', async () => {
      await created({ slug: 'short-lived' });
      assert.equal((await send(t.app, { method: 'GET', url: '/short-lived' })).status, 302);
      const deleted = await callApi(t.app, 'DELETE', '/links/short-lived', { key: t.apiKey });
      assert.equal(deleted.status, 204);
      assert.equal((await send(t.app, { method: 'GET', url: '/short-lived' })).status, 404);
      assertProblem(await callApi(t.app, 'DELETE', '/links/short-lived', { key: t.apiKey }), 404, '314');
      assertProblem(await create({ url: fresh(), slug: 'short-lived' }), 409, '313');
    });

    it('answers 314 for a link of another account and leaves it', async () => {
      await created({ slug: 'not-yours' });
      assertProblem(await callApi(t.app, 'DELETE', '/links/not-yours', { key: other }), 404, '314');
      assert.equal((await send(t.app, { method: 'GET', url: '/not-yours' })).status, 302);
    });
  });

  describe('methods', () => {
    it('answers another method with 405 and Allow', async () => {
      const answer = await callApi(t.app, 'PUT', '/links/abc', { key: t.apiKey, body: {} });
      assertProblem(answer, 405, '405');
      assert.equal(answer.headers.allow, 'GET, PATCH, DELETE, HEAD');
      assert.equal(
        (await callApi(t.app, 'DELETE', '/links', { key: t.apiKey })).headers.allow,
        'GET, POST, HEAD',
      );
    });
  });
});

describe('listing links on /api/v1', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  const list = (query: string, key = t.apiKey) => callApi(t.app, 'GET', `/links${query}`, { key });
  const codes = (answer: { body: LinkBody }) =>
    (answer.body.items as LinkBody[]).map((link) => link.short_code);

  async function make(slug: string, body: LinkBody = {}) {
    const answer = await callApi(t.app, 'POST', '/links', {
      key: t.apiKey,
      body: { url: `https://example.com/${slug}`, slug, ...body },
    });
    assert.equal(answer.status, 201);
  }

  it('pages newest first by cursor, right while links are added and deleted between pages', async () => {
    for (const slug of ['l-one', 'l-two', 'l-three', 'l-four', 'l-five']) await make(slug);
    const first = await list('?limit=2');
    assert.equal(first.status, 200);
    assert.deepEqual(codes(first), ['l-five', 'l-four']);
    assert.equal(typeof first.body.next_cursor, 'string');
    // Between pages: a new link (ahead of the cursor) and the deletion of the link the cursor stands on.
    await make('l-six');
    await callApi(t.app, 'DELETE', '/links/l-four', { key: t.apiKey });
    const second = await list(`?limit=2&cursor=${first.body.next_cursor}`);
    assert.deepEqual(codes(second), ['l-three', 'l-two']);
    const third = await list(`?limit=2&cursor=${second.body.next_cursor}`);
    assert.deepEqual(codes(third), ['l-one']);
    assert.equal(third.body.next_cursor, null);
    assert.equal(codes(await list('')).length, 5, 'default limit 50 holds them all');
  });

  it('filters by q, group, tag and expired', async () => {
    await callApi(t.app, 'POST', '/groups', { key: t.apiKey, body: { name: 'Filters', api_id: 'filters' } });
    await make('f-alpha', { title: 'Alpha Centauri', tags: ['space'], group: 'filters' });
    await make('f-beta', { title: 'Beta', tags: ['space', 'greek'] });
    assert.deepEqual(codes(await list('?q=centauri')), ['f-alpha']);
    assert.deepEqual(codes(await list('?q=f-be')), ['f-beta'], 'the long URL is searched too');
    assert.deepEqual(codes(await list('?group=filters')), ['f-alpha']);
    assert.deepEqual(codes(await list('?tag=space')), ['f-beta', 'f-alpha']);
    assert.deepEqual(codes(await list('?tag=greek&q=beta')), ['f-beta']);
    assert.deepEqual(codes(await list('?expired=true')), []);
    assert.ok(codes(await list('?expired=false')).includes('f-alpha'));
    assertProblem(await list('?group=unknown'), 422, '312');
  });

  it('refuses a bad limit, a bad filter or a cursor it did not issue with 300', async () => {
    await make('c-one');
    await make('c-two');
    const page = await list('?limit=1');
    const cursor = String(page.body.next_cursor);
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?limit=ten',
      '?limit=1.5',
      '?expired=maybe',
      '?extra=1',
    ]) {
      assertProblem(await list(query), 400, '300');
    }
    const [payload = '', mac = ''] = cursor.split('.');
    const tampered = [
      'nonsense',
      `${payload}.`,
      // The MAC's first character: its six bits are all data (the last one's are partly padding,
      // and another last character may decode to the same bytes).
      `${payload}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`,
      `${Buffer.from('[1,0,0]').toString('base64url')}.${mac}`,
      `${cursor}.x`,
    ];
    for (const bad of tampered) assertProblem(await list(`?cursor=${encodeURIComponent(bad)}`), 400, '300');
    // A cursor is bound to its account.
    const { apiKey: other } = await t.ops.createAccount('cursor-thief@example.com', 'tester');
    assertProblem(await list(`?cursor=${cursor}`, other), 400, '300');
    assert.equal((await list(`?cursor=${cursor}`)).status, 200);
  });

  it('exports every link as CSV, guarding spreadsheet formulas', async () => {
    await make('csv-one', { title: '=HYPERLINK("http://evil.example")', tags: ['b', 'a'] });
    const answer = await t.app.inject({
      method: 'GET',
      url: '/api/v1/links.csv',
      headers: { 'x-api-key': t.apiKey },
    });
    assert.equal(answer.statusCode, 200);
    assert.match(String(answer.headers['content-type']), /^text\/csv/);
    assert.match(String(answer.headers['content-disposition']), /attachment/);
    const lines = answer.body.split('\r\n');
    assert.equal(
      lines[0],
      'short_code,short_url,long_url,title,group,tags,created_at,expires_at,clicks,unique_visitors,domain,leads,sales,revenue',
    );
    const row = lines.find((line) => line.startsWith('csv-one,'));
    assert.equal(
      row?.replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/, 'TIME'),
      'csv-one,https://sn.ip/csv-one,https://example.com/csv-one,"\'=HYPERLINK(""http://evil.example"")",,"a,b",TIME,,0,0,sn.ip,0,0,',
    );
    const listed = codes(await list('?limit=100'));
    assert.equal(lines.filter((line) => line !== '').length, listed.length + 1, 'one row per live link');
  });
});
