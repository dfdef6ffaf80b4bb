import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { NewLink, Workspace } from '../../../src/core/entities.ts';
import { workspaceGroups } from '../../../src/features/groups/workspace-groups.ts';
import { linkRefusal } from '../../../src/features/links/pages/link-field-errors.ts';
import { workspaceAdmin } from '../../../src/features/workspaces/index.ts';
import { membersService } from '../../../src/features/workspaces/members.ts';
import { PageClient } from '../../fixtures/page-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * POST /w/<slug>/bulk/edit and /bulk/delete: the dashboard's changes to the links ticked in its
 * list, as JSON with the session's token, through the service of PATCH|DELETE /api/v1/links/bulk.
 */

const PASSWORD = 'correct horse battery';

function seeded(workspace: number, i: number, tags: string[] = []): NewLink {
  const url = `https://example.com/bulk/${i}`;
  return {
    code: `bk${String(i).padStart(5, '0')}`,
    domainId: 0,
    workspaceId: workspace,
    groupId: null,
    longUrl: url,
    normalizedUrl: url,
    urlHash: createHash('sha256').update(url).digest('hex'),
    title: `Page ${i}`,
    tags,
  };
}

/** Posts JSON as the dashboard's script does: the session's cookie, `_csrf` in the body. */
function postJson(client: PageClient, path: string, body: unknown): Promise<LightMyRequestResponse> {
  return client.app.inject({
    method: 'POST',
    url: path,
    headers: { cookie: client.cookieHeader, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

describe('the dashboard’s bulk changes', () => {
  let t: TestApp;
  let acme: Workspace;
  let owner: PageClient;
  let viewer: PageClient;
  const codes = [0, 1, 2, 3].map((i) => seeded(0, i).code);

  before(async () => {
    t = await startTestApp();
    await t.ops.createAccount('olga@example.com', 'tester', PASSWORD);
    await t.ops.createAccount('vic@example.com', 'tester', PASSWORD);
    acme = await workspaceAdmin(t.store).create('acme', 'olga@example.com', 'tester', 'Acme');
    await membersService(t.store).add(acme, 'vic@example.com', 'viewer');
    await t.store.insertLinksBulk([0, 1, 2, 3].map((i) => seeded(acme.id, i, i === 0 ? ['blog'] : [])));
    owner = new PageClient(t.app);
    assert.equal((await owner.signIn('olga@example.com', PASSWORD)).statusCode, 303);
    await owner.open('/w/acme');
    viewer = new PageClient(t.app);
    assert.equal((await viewer.signIn('vic@example.com', PASSWORD)).statusCode, 303);
    await viewer.open('/w/acme');
  });
  after(() => t.close());

  const link = (code: string) => t.store.findLinkByCode(0, code);
  const tagsOf = async (code: string) => {
    const found = await link(code);
    return found ? ((await t.store.tagsOf([found.id])).get(found.id) ?? []) : undefined;
  };

  it('moves links to a group and tags them, each answered at its index, an unknown code with 314', async () => {
    const group = await workspaceGroups(t.store).create(acme, 'Spring');
    const moved = await postJson(owner, '/w/acme/bulk/edit', {
      _csrf: owner.csrf,
      codes: [codes[0], 'nothere', codes[1]],
      change: { group: group.id },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    const items = moved.json().items as Array<{
      index: number;
      link?: unknown;
      error?: { code: string; detail: string };
    }>;
    assert.deepEqual(
      items.map((item) => [item.index, item.error?.code ?? 'ok']),
      [
        [0, 'ok'],
        [1, '314'],
        [2, 'ok'],
      ],
    );
    // Said as the forms say it, not in the API's words; the code stays.
    assert.equal(items[1]?.error?.detail, linkRefusal({ code: '314', message: '' })?.error.message);
    assert.equal((await link(codes[0] ?? ''))?.groupId, group.id);
    assert.equal((await link(codes[1] ?? ''))?.groupId, group.id);

    const tagged = await postJson(owner, '/w/acme/bulk/edit', {
      _csrf: owner.csrf,
      codes: [codes[0]],
      change: { tags: ['blog', 'spring'] },
    });
    assert.equal(tagged.statusCode, 200, tagged.body);
    assert.deepEqual(await tagsOf(codes[0] ?? ''), ['blog', 'spring']);

    const out = await postJson(owner, '/w/acme/bulk/edit', {
      _csrf: owner.csrf,
      codes: [codes[1]],
      change: { group: null },
    });
    assert.equal(out.statusCode, 200);
    assert.equal((await link(codes[1] ?? ''))?.groupId, null);
  });

  it('deletes links: they stop redirecting, and a second delete reads 314', async () => {
    const deleted = await postJson(owner, '/w/acme/bulk/delete', { _csrf: owner.csrf, codes: [codes[2]] });
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.equal(await link(codes[2] ?? ''), undefined);
    assert.equal((await t.app.inject({ method: 'GET', url: `/${codes[2]}` })).statusCode, 404);
    const again = await postJson(owner, '/w/acme/bulk/delete', { _csrf: owner.csrf, codes: [codes[2]] });
    assert.equal(again.json().items[0].error.code, '314');
  });

  it('refuses a body of the wrong shape with 400 (300), changing nothing', async () => {
    const before = await link(codes[3] ?? '');
    const bodies: Array<[string, unknown]> = [
      ['/w/acme/bulk/edit', { codes: [], change: { group: null } }],
      ['/w/acme/bulk/edit', { codes: 'x', change: { group: null } }],
      ['/w/acme/bulk/edit', { codes: [codes[3]] }],
      ['/w/acme/bulk/edit', { codes: [codes[3]], change: {} }],
      ['/w/acme/bulk/edit', { codes: [codes[3]], change: { url: 'https://example.com/elsewhere' } }],
      ['/w/acme/bulk/edit', { codes: [codes[3]], change: { tags: 'one' } }],
      ['/w/acme/bulk/edit', { codes: Array.from({ length: 101 }, () => codes[3]), change: { group: null } }],
      ['/w/acme/bulk/delete', { codes: [codes[3]], domain: 7 }],
      ['/w/acme/bulk/delete', {}],
    ];
    for (const [path, body] of bodies) {
      const answer = await postJson(owner, path, { _csrf: owner.csrf, ...(body as object) });
      assert.equal(answer.statusCode, 400, `${path} ${JSON.stringify(body)}`);
      assert.equal(answer.json().error.code, '300', JSON.stringify(body));
    }
    assert.deepEqual(await link(codes[3] ?? ''), before);
  });

  it('creates rows naming their group by name, identifier or ID; one no group has reads 312 naming it', async () => {
    const summer = await workspaceGroups(t.store).create(acme, 'Summer Sale');
    const rows = [
      { url: 'https://example.com/rows/name', group: 'Summer Sale' },
      { url: 'https://example.com/rows/case', group: 'summer sale' },
      { url: 'https://example.com/rows/api-id', group: summer.apiId },
      { url: 'https://example.com/rows/id', group: String(summer.id) },
      { url: 'https://example.com/rows/missing', group: 'Autumn Sale' },
    ];
    const made = await postJson(owner, '/w/acme/bulk', { _csrf: owner.csrf, items: rows });
    assert.equal(made.statusCode, 200, made.body);
    const items = made.json().items as Array<{
      index: number;
      link?: { short_code: string; group: { id: number } | null };
      error?: { code: string; detail: string };
    }>;
    assert.deepEqual(
      items.map((item) => item.error?.code ?? item.link?.group?.id),
      [summer.id, summer.id, summer.id, summer.id, '312'],
    );
    for (const item of items.slice(0, 4)) {
      assert.equal((await link(item.link?.short_code ?? ''))?.groupId, summer.id);
    }
    // Not the create form's sentence for a stale choice: the row's own, naming what it asked for.
    const missing = items[4]?.error?.detail ?? '';
    assert.notEqual(missing, linkRefusal({ code: '312', message: '' })?.error.message);
    assert.match(missing, /“Autumn Sale”/);
  });

  it('says a row pointing at this Snip and a row already shortened each in its own sentence', async () => {
    const rows = [{ url: `${t.config.baseUrl.origin}/elsewhere` }, { url: 'https://example.com/bulk/1' }];
    const made = await postJson(owner, '/w/acme/bulk', { _csrf: owner.csrf, items: rows });
    assert.equal(made.statusCode, 200, made.body);
    const items = made.json().items as Array<{ error?: { code: string; detail: string } }>;
    assert.deepEqual(
      items.map((item) => item.error?.code),
      ['305', '305'],
    );
    const own = linkRefusal({ code: '305', message: '', ownUrl: true })?.error.message;
    assert.equal(items[0]?.error?.detail, own);
    assert.notEqual(items[1]?.error?.detail, own);
    assert.equal(items[1]?.error?.detail, linkRefusal({ code: '305', message: '' })?.error.message);
  });

  it('refuses a viewer (403) and a request without the session token, changing nothing', async () => {
    const before = await link(codes[3] ?? '');
    const denied = [
      await postJson(viewer, '/w/acme/bulk/delete', { _csrf: viewer.csrf, codes: [codes[3]] }),
      await postJson(viewer, '/w/acme/bulk/edit', {
        _csrf: viewer.csrf,
        codes: [codes[3]],
        change: { tags: ['x'] },
      }),
    ];
    assert.deepEqual(
      denied.map((answer) => answer.statusCode),
      [403, 403],
    );
    for (const token of [undefined, '', 'x'.repeat(43), viewer.csrf]) {
      for (const path of ['/w/acme/bulk/delete', '/w/acme/bulk/edit']) {
        const answer = await postJson(owner, path, {
          _csrf: token,
          codes: [codes[3]],
          change: { tags: ['x'] },
        });
        assert.equal(answer.statusCode, 403, `${path} with ${token}`);
      }
    }
    const outsider = new PageClient(t.app);
    await t.ops.createAccount('out@example.com', 'tester', PASSWORD);
    await outsider.signIn('out@example.com', PASSWORD);
    const foreign = await postJson(outsider, '/w/acme/bulk/delete', {
      _csrf: outsider.csrf,
      codes: [codes[3]],
    });
    assert.equal(foreign.statusCode, 404, 'a workspace one is not a member of does not exist');
    assert.deepEqual(await link(codes[3] ?? ''), before);
    assert.deepEqual(await tagsOf(codes[3] ?? ''), []);
  });
});
