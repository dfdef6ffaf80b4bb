import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, callApi, keyWithScopes } from '../../fixtures/api-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/** Groups through /api/v1 (docs/api.md §7.2–7.3). */

describe('groups on /api/v1', () => {
  let t: TestApp;
  let other: string;
  before(async () => {
    t = await startTestApp();
    other = (await t.ops.createAccount('other@example.com', 'tester')).apiKey;
  });
  after(() => t.close());

  const api = (method: string, path: string, body?: unknown, key = t.apiKey) =>
    callApi(t.app, method, path, { key, body });

  it('creates, lists newest first with link counts, changes and deletes a group', async () => {
    const created = await api('POST', '/groups', { name: 'Spring Sale 2026!' });
    assert.equal(created.status, 201);
    assert.equal(created.headers.location, `https://sn.ip/api/v1/groups/${created.body.id}`);
    assert.deepEqual(created.body, {
      id: created.body.id,
      api_id: 'spring-sale-2026',
      name: 'Spring Sale 2026!',
      links: 0,
    });
    const second = await api('POST', '/groups', { name: 'Blog', api_id: 'Blog-Posts' });
    assert.equal(second.body.api_id, 'blog-posts');
    for (const slug of ['g-one', 'g-two']) {
      await api('POST', '/links', { url: `https://example.com/${slug}`, slug, group: created.body.id });
    }
    await api('POST', '/links', { url: 'https://example.com/g-three', slug: 'g-three', group: 'blog-posts' });
    await api('DELETE', '/links/g-three');
    const listed = await api('GET', '/groups');
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body, {
      items: [
        { id: second.body.id, api_id: 'blog-posts', name: 'Blog', links: 0 },
        { id: created.body.id, api_id: 'spring-sale-2026', name: 'Spring Sale 2026!', links: 2 },
      ],
      next_cursor: null,
    });
    const renamed = await api('PATCH', `/groups/${created.body.id}`, { name: 'Spring' });
    assert.deepEqual(renamed.body, {
      id: created.body.id,
      api_id: 'spring-sale-2026',
      name: 'Spring',
      links: 2,
    });
    const moved = await api('PATCH', `/groups/${created.body.id}`, { api_id: 'spring' });
    assert.equal(moved.body.api_id, 'spring');
    assert.equal(((await api('GET', '/links/g-one')).body.group as { api_id: string }).api_id, 'spring');
    assert.equal((await api('DELETE', `/groups/${created.body.id}`)).status, 204);
    assert.equal((await api('GET', '/links/g-one')).body.group, null, 'its links stay, ungrouped');
    assertProblem(await api('PATCH', `/groups/${created.body.id}`, { name: 'x' }), 404, '314');
  });

  it('refuses a taken API identifier with 313, a foreign or unknown group with 314', async () => {
    const mine = await api('POST', '/groups', { name: 'Taken', api_id: 'taken' });
    const another = await api('POST', '/groups', { name: 'Another' });
    assertProblem(await api('POST', '/groups', { name: 'Again', api_id: 'taken' }), 409, '313');
    assertProblem(await api('PATCH', `/groups/${another.body.id}`, { api_id: 'taken' }), 409, '313');
    assert.equal(
      (await api('POST', '/groups', { name: 'Taken', api_id: 'taken' }, other)).status,
      201,
      'per account',
    );
    assertProblem(await api('PATCH', `/groups/${mine.body.id}`, { name: 'Mine now' }, other), 404, '314');
    assertProblem(await api('DELETE', `/groups/${mine.body.id}`, undefined, other), 404, '314');
    assertProblem(await api('DELETE', '/groups/999999'), 404, '314');
    assert.equal((await api('GET', '/groups')).status, 200);
  });

  it('refuses bad group input with 300', async () => {
    const group = await api('POST', '/groups', { name: 'Valid' });
    const bad: Array<[string, string, unknown]> = [
      ['POST', '/groups', {}],
      ['POST', '/groups', { name: '' }],
      ['POST', '/groups', { name: 'x'.repeat(101) }],
      ['POST', '/groups', { name: 5 }],
      ['POST', '/groups', { name: 'Ok', api_id: 'Not A Slug!' }],
      ['POST', '/groups', { name: 'Ok', api_id: '12345' }],
      ['POST', '/groups', { name: 'Ok', color: 'red' }],
      ['PATCH', `/groups/${group.body.id}`, {}],
      ['PATCH', `/groups/${group.body.id}`, { name: '' }],
      ['PATCH', '/groups/abc', { name: 'x' }],
      ['PATCH', '/groups/0', { name: 'x' }],
      ['DELETE', '/groups/-1', undefined],
    ];
    for (const [method, path, body] of bad) assertProblem(await api(method, path, body), 400, '300');
  });

  it('needs groups:write to change groups and links:read to list them', async () => {
    const writer = await keyWithScopes(t.store, t.email, ['groups:write'], 'group writer');
    assert.equal((await api('POST', '/groups', { name: 'By writer' }, writer)).status, 201);
    assertProblem(await api('GET', '/groups', undefined, writer), 403, '315');
  });
});
