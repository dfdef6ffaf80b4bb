import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { runSnip } from '../../fixtures/cli-harness.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { type Answer, createJson, startTestApp, type TestApp } from '../../helper.ts';

/**
 * A team workspace through /api/v1 (docs/api.md §7.1, §11): members, roles, invitations, what each
 * role's keys may do, and quota, duplicates and the hourly window shared by the workspace. Set up
 * as an operator would: users, workspaces and keys made with `snip … --json` on the app's store.
 */

const PASSWORD = 'correct horse battery';
const DAY_MS = 86_400_000;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const ENVELOPE_ERROR_KEYS = ['error', 'message', 'success', 'timestamps'];

/** The operator's commands on the app's own store; each must succeed. */
function operator(t: () => TestApp) {
  const env = () => ({ DATABASE_URL: t().config.databaseUrl, BASE_URL: 'https://sn.ip' });
  const run = (...argv: string[]) => runSnip(env(), {}, [...argv, '--json']);
  const ok = async (...argv: string[]) => {
    const done = await run(...argv);
    assert.equal(done.code, 0, `snip ${argv.join(' ')}: ${done.err}`);
    return done.json;
  };
  return {
    run,
    ok,
    user: async (email: string) =>
      String((await ok('account', 'create', email, '--plan', 'tester', '--password', PASSWORD)).api_key),
    key: async (workspace: string, by: string, ...more: string[]) =>
      String((await ok('key', 'create', workspace, '--by', by, ...more)).api_key),
  };
}

function assertEnvelopeRefusal(answer: Answer, status: number, code: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.error, code);
  assert.equal(answer.body.success, 'false');
  assert.deepEqual(Object.keys(answer.body).sort(), ENVELOPE_ERROR_KEYS);
}

const roles = async (t: TestApp, key: string) => {
  const answer = await callApi(t.app, 'GET', '/members', { key });
  assert.equal(answer.status, 200);
  const items = answer.body.items as { email: string; role: string }[];
  return Object.fromEntries(items.map((m) => [m.email, m.role]));
};

const pathOf = (url: unknown) => new URL(String(url)).pathname;

describe('members, roles and invitations of a team workspace on /api/v1', () => {
  let t: TestApp;
  const snip = operator(() => t);
  const keys = { owner: '', admin: '', member: '', viewer: '', adminReader: '' };
  const at = (who: string) => `${who}@example.com`;

  before(async () => {
    t = await startTestApp();
    for (const who of ['olive', 'adam', 'mia', 'vic', 'pat', 'rex', 'ivy', 'jay', 'kim'])
      await snip.user(at(who));
    await snip.ok('workspace', 'create', 'acme', '--owner', at('olive'), '--name', 'Acme');
    for (const [who, role] of [
      ['adam', 'admin'],
      ['mia', 'member'],
      ['vic', 'viewer'],
      ['pat', 'member'],
    ] as const) {
      await snip.ok('member', 'add', 'acme', at(who), '--role', role);
    }
    keys.owner = await snip.key('acme', at('olive'));
    keys.admin = await snip.key('acme', at('adam'));
    keys.adminReader = await snip.key('acme', at('adam'), '--scopes', 'links:read', '--name', 'reader');
    // A member or a viewer makes no key; keys they made as admins are bounded by the role they have now.
    for (const who of ['mia', 'vic']) {
      assert.equal((await snip.run('key', 'create', 'acme', '--by', at(who))).code, 1, `${who} made a key`);
      const role = who === 'mia' ? 'member' : 'viewer';
      const promote = { key: keys.owner, body: { role: 'admin' } };
      assert.equal((await callApi(t.app, 'PATCH', `/members/${at(who)}`, promote)).status, 200);
      keys[role] = await snip.key('acme', at(who));
      const demote = { key: keys.owner, body: { role } };
      assert.equal((await callApi(t.app, 'PATCH', `/members/${at(who)}`, demote)).status, 200);
    }
  });
  after(() => t.close());

  it('lists every member with email, role and joined_at, owners first, to owner and admin keys', async () => {
    for (const key of [keys.owner, keys.admin]) {
      const answer = await callApi(t.app, 'GET', '/members', { key });
      assert.equal(answer.status, 200);
      const items = answer.body.items as Record<string, unknown>[];
      for (const item of items) {
        assert.deepEqual(Object.keys(item).sort(), ['email', 'joined_at', 'role']);
        assert.match(String(item.joined_at), RFC3339);
      }
      assert.equal(items[0]?.email, at('olive'));
      assert.equal(items[0]?.role, 'owner');
      const byEmail = Object.fromEntries(items.map((m) => [m.email, m.role]));
      assert.equal(byEmail[at('adam')], 'admin');
      assert.equal(byEmail[at('mia')], 'member');
      assert.equal(byEmail[at('vic')], 'viewer');
      assert.equal(byEmail[t.email], undefined, 'nobody of another workspace');
    }
  });

  it("refuses members and invitations to a member's or viewer's key and to a key without members:read (315)", async () => {
    for (const key of [keys.member, keys.viewer, keys.adminReader]) {
      assertProblem(await callApi(t.app, 'GET', '/members', { key }), 403, '315');
      assertProblem(await callApi(t.app, 'GET', '/invitations', { key }), 403, '315');
      const patch = await callApi(t.app, 'PATCH', `/members/${at('pat')}`, { key, body: { role: 'viewer' } });
      assertProblem(patch, 403, '315');
      assertProblem(await callApi(t.app, 'DELETE', `/members/${at('pat')}`, { key }), 403, '315');
      const invite = { key, body: { email: at('nobody'), role: 'viewer' } };
      assertProblem(await callApi(t.app, 'POST', '/invitations', invite), 403, '315');
    }
    assert.equal((await roles(t, keys.owner))[at('pat')], 'member', 'nothing changed');
  });

  it("lets an admin's key change a member's role, never make, change or remove an owner (315)", async () => {
    const toViewer = await callApi(t.app, 'PATCH', `/members/${at('pat')}`, {
      key: keys.admin,
      body: { role: 'viewer' },
    });
    assert.equal(toViewer.status, 200);
    assert.equal(toViewer.body.email, at('pat'));
    assert.equal(toViewer.body.role, 'viewer');
    assert.match(String(toViewer.body.joined_at), RFC3339);
    const toOwner = { key: keys.admin, body: { role: 'owner' } };
    assertProblem(await callApi(t.app, 'PATCH', `/members/${at('pat')}`, toOwner), 403, '315');
    const demoteOwner = { key: keys.admin, body: { role: 'admin' } };
    assertProblem(await callApi(t.app, 'PATCH', `/members/${at('olive')}`, demoteOwner), 403, '315');
    assertProblem(await callApi(t.app, 'DELETE', `/members/${at('olive')}`, { key: keys.admin }), 403, '315');
    const now = await roles(t, keys.owner);
    assert.equal(now[at('pat')], 'viewer');
    assert.equal(now[at('olive')], 'owner');
  });

  it('answers 314 for an email not in the workspace, 300 for a bad role or malformed JSON', async () => {
    const key = keys.owner;
    for (const email of ['nobody@example.com', t.email, 'not-an-email']) {
      const patch = await callApi(t.app, 'PATCH', `/members/${email}`, { key, body: { role: 'viewer' } });
      assertProblem(patch, 404, '314');
      assertProblem(await callApi(t.app, 'DELETE', `/members/${email}`, { key }), 404, '314');
    }
    for (const body of [{ role: 'boss' }, { role: 5 }, {}, { role: 'viewer', extra: 1 }, '{not json', '[]']) {
      assertProblem(await callApi(t.app, 'PATCH', `/members/${at('pat')}`, { key, body }), 400, '300');
    }
    for (const body of [
      { email: at('zed'), role: 'boss' },
      { email: 'not-an-email', role: 'viewer' },
      '{bad',
    ]) {
      assertProblem(await callApi(t.app, 'POST', '/invitations', { key, body }), 400, '300');
    }
    assertProblem(await callApi(t.app, 'DELETE', '/invitations/abc', { key }), 400, '300');
    assert.equal((await roles(t, key))[at('pat')], 'viewer', 'nothing changed');
  });

  it('removes a member with 204, and their keys answer 303 at once on /api/v1 and POST /create', async () => {
    await snip.ok('member', 'add', 'acme', at('rex'), '--role', 'admin');
    const rexKey = await snip.key('acme', at('rex'));
    assert.equal((await callApi(t.app, 'GET', '/links', { key: rexKey })).status, 200);
    assert.equal((await createJson(t.app, rexKey, { url: 'https://example.com/rex' })).status, 201);
    const removed = await callApi(t.app, 'DELETE', `/members/${at('rex')}`, { key: keys.admin });
    assert.equal(removed.status, 204);
    assertProblem(await callApi(t.app, 'GET', '/workspace', { key: rexKey }), 401, '303');
    assertEnvelopeRefusal(await createJson(t.app, rexKey, { url: 'https://example.com/rex2' }), 401, '303');
    assert.equal((await roles(t, keys.admin))[at('rex')], undefined);
    assertProblem(await callApi(t.app, 'DELETE', `/members/${at('rex')}`, { key: keys.admin }), 404, '314');
  });

  it('invites with 201, a url under BASE_URL valid 7 days; lists it pending without the url', async () => {
    const sent = Date.now();
    const made = await callApi(t.app, 'POST', '/invitations', {
      key: keys.admin,
      body: { email: at('nina'), role: 'member' },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(Object.keys(made.body).sort(), [
      'created_at',
      'email',
      'expires_at',
      'id',
      'role',
      'url',
    ]);
    assert.equal(made.body.email, at('nina'));
    assert.equal(made.body.role, 'member');
    assert.ok(Number.isInteger(made.body.id));
    assert.match(String(made.body.url), /^https:\/\/sn\.ip\/invitations\/[^/?#]+$/);
    assert.match(String(made.body.expires_at), RFC3339);
    const expires = Date.parse(String(made.body.expires_at));
    assert.ok(expires >= sent + 7 * DAY_MS - 1000 && expires <= Date.now() + 7 * DAY_MS + 1000);
    const listed = await callApi(t.app, 'GET', '/invitations', { key: keys.owner });
    assert.equal(listed.status, 200);
    const item = (listed.body.items as Record<string, unknown>[]).find((i) => i.id === made.body.id);
    assert.deepEqual(item, {
      id: made.body.id,
      email: at('nina'),
      role: 'member',
      created_at: made.body.created_at,
      expires_at: made.body.expires_at,
    });
  });

  it("refuses an admin's key inviting an owner (315) and inviting someone already a member (300)", async () => {
    const owner = { key: keys.admin, body: { email: at('boss'), role: 'owner' } };
    assertProblem(await callApi(t.app, 'POST', '/invitations', owner), 403, '315');
    const member = { key: keys.owner, body: { email: at('mia'), role: 'viewer' } };
    assertProblem(await callApi(t.app, 'POST', '/invitations', member), 400, '300');
    const pending = (await callApi(t.app, 'GET', '/invitations', { key: keys.owner })).body.items as {
      email: string;
    }[];
    assert.ok(!pending.some((i) => i.email === at('boss') || i.email === at('mia')));
    const byOwner = { key: keys.owner, body: { email: at('boss'), role: 'owner' } };
    assert.equal((await callApi(t.app, 'POST', '/invitations', byOwner)).status, 201, "an owner's key may");
  });

  it('revokes an invitation with 204: its link answers 410 at once, a second revoke 314', async () => {
    const made = await callApi(t.app, 'POST', '/invitations', {
      key: keys.admin,
      body: { email: at('olga'), role: 'viewer' },
    });
    const visitor = new PageClient(t.app);
    assert.equal((await visitor.get(pathOf(made.body.url))).statusCode, 200);
    const revoked = await callApi(t.app, 'DELETE', `/invitations/${made.body.id}`, { key: keys.admin });
    assert.equal(revoked.status, 204);
    assert.equal((await visitor.get(pathOf(made.body.url))).statusCode, 410);
    const again = await callApi(t.app, 'DELETE', `/invitations/${made.body.id}`, { key: keys.admin });
    assertProblem(again, 404, '314');
    assertProblem(await callApi(t.app, 'DELETE', '/invitations/999999', { key: keys.admin }), 404, '314');
    const pending = (await callApi(t.app, 'GET', '/invitations', { key: keys.owner })).body.items as {
      id: number;
    }[];
    assert.ok(!pending.some((i) => i.id === made.body.id));
  });

  it('makes whoever accepts the link signed in as its email a member with its role, once', async () => {
    const made = await callApi(t.app, 'POST', '/invitations', {
      key: keys.admin,
      body: { email: at('ivy'), role: 'viewer' },
    });
    const path = pathOf(made.body.url);
    const ivy = new PageClient(t.app);
    assert.equal((await ivy.signIn(at('ivy'), PASSWORD)).statusCode, 303);
    assert.equal((await ivy.open(path)).statusCode, 200);
    const accepted = await ivy.post(`${path}/accept`);
    assert.equal(accepted.statusCode, 303);
    assert.equal(accepted.headers.location, '/w/acme');
    assert.equal((await roles(t, keys.owner))[at('ivy')], 'viewer');
    const count = Object.keys(await roles(t, keys.owner)).length;
    assert.equal((await ivy.get(path)).statusCode, 410);
    assert.equal((await ivy.post(`${path}/accept`)).statusCode, 410);
    assert.equal((await roles(t, keys.owner))[at('ivy')], 'viewer', 'nothing more granted');
    assert.equal(Object.keys(await roles(t, keys.owner)).length, count);
  });

  it('lets someone who signs up as the invited email accept it', async () => {
    const made = await callApi(t.app, 'POST', '/invitations', {
      key: keys.owner,
      body: { email: at('newbie'), role: 'member' },
    });
    const newbie = new PageClient(t.app);
    assert.equal((await newbie.signUp(at('newbie'), PASSWORD)).statusCode, 303);
    const path = pathOf(made.body.url);
    assert.equal((await newbie.open(path)).statusCode, 200);
    assert.equal((await newbie.post(`${path}/accept`)).statusCode, 303);
    assert.equal((await roles(t, keys.owner))[at('newbie')], 'member');
  });

  it('grants nothing to another signed-in email (403), and the link still works for its own', async () => {
    const made = await callApi(t.app, 'POST', '/invitations', {
      key: keys.admin,
      body: { email: at('jay'), role: 'admin' },
    });
    const path = pathOf(made.body.url);
    const kim = new PageClient(t.app);
    assert.equal((await kim.signIn(at('kim'), PASSWORD)).statusCode, 303);
    const seen = await kim.open(path);
    assert.equal(seen.statusCode, 403);
    const taken = await kim.post(`${path}/accept`);
    assert.equal(taken.statusCode, 403);
    assert.equal(attribute(taken.body, 'data-error'), 'invitation-other-email', 'not a forged form');
    assert.equal((await roles(t, keys.owner))[at('kim')], undefined);
    const pending = (await callApi(t.app, 'GET', '/invitations', { key: keys.owner })).body.items as {
      id: number;
    }[];
    assert.ok(
      pending.some((i) => i.id === made.body.id),
      'still pending',
    );
    const jay = new PageClient(t.app);
    await jay.signIn(at('jay'), PASSWORD);
    await jay.open(path);
    assert.equal((await jay.post(`${path}/accept`)).statusCode, 303);
    assert.equal((await roles(t, keys.owner))[at('jay')], 'admin');
  });
});

describe('the owners of a workspace', () => {
  let t: TestApp;
  const snip = operator(() => t);
  before(async () => {
    t = await startTestApp();
    for (const who of ['sam', 'al']) await snip.user(`${who}@example.com`);
    await snip.ok('workspace', 'create', 'solo', '--owner', 'sam@example.com');
    await snip.ok('member', 'add', 'solo', 'al@example.com', '--role', 'admin');
  });
  after(() => t.close());

  it('never demotes nor removes the last owner (319); of two owners, one can go', async () => {
    const key = await snip.key('solo', 'sam@example.com');
    const sam = '/members/sam@example.com';
    const al = '/members/al@example.com';
    assertProblem(await callApi(t.app, 'PATCH', sam, { key, body: { role: 'admin' } }), 409, '319');
    assertProblem(await callApi(t.app, 'DELETE', sam, { key }), 409, '319');
    const promoted = await callApi(t.app, 'PATCH', al, { key, body: { role: 'owner' } });
    assert.equal(promoted.status, 200, "an owner's key makes an admin owner");
    assert.equal(promoted.body.role, 'owner');
    const demoted = await callApi(t.app, 'PATCH', al, { key, body: { role: 'admin' } });
    assert.equal(demoted.status, 200, 'one of two owners may be demoted');
    assert.equal((await callApi(t.app, 'PATCH', al, { key, body: { role: 'owner' } })).status, 200);
    assert.equal((await callApi(t.app, 'DELETE', al, { key })).status, 204, 'one of two owners may go');
    assertProblem(await callApi(t.app, 'PATCH', sam, { key, body: { role: 'member' } }), 409, '319');
    assertProblem(await callApi(t.app, 'DELETE', sam, { key }), 409, '319');
    assert.deepEqual(await roles(t, key), { 'sam@example.com': 'owner' });
  });
});

describe('what the keys of each role may do, and the workspace they describe', () => {
  let t: TestApp;
  const snip = operator(() => t);
  const keys = { owner: '', member: '', viewer: '' };
  let code = '';
  let group = 0;
  before(async () => {
    t = await startTestApp();
    for (const who of ['wanda', 'mo', 'vi']) await snip.user(`${who}@example.com`);
    await snip.ok('workspace', 'create', 'works', '--owner', 'wanda@example.com', '--name', 'Works Ltd');
    keys.owner = await snip.key('works', 'wanda@example.com');
    for (const [who, role] of [
      ['mo', 'member'],
      ['vi', 'viewer'],
    ] as const) {
      await snip.ok('member', 'add', 'works', `${who}@example.com`, '--role', 'admin');
      keys[role] = await snip.key('works', `${who}@example.com`);
      const body = { role };
      const patch = await callApi(t.app, 'PATCH', `/members/${who}@example.com`, { key: keys.owner, body });
      assert.equal(patch.status, 200);
    }
    const made = await callApi(t.app, 'POST', '/links', {
      key: keys.member,
      body: { url: 'https://example.com/by-member' },
    });
    assert.equal(made.status, 201, "a member's key creates links");
    code = String(made.body.short_code);
    const madeGroup = await callApi(t.app, 'POST', '/groups', { key: keys.member, body: { name: 'Team' } });
    assert.equal(madeGroup.status, 201, "a member's key writes groups");
    group = Number(madeGroup.body.id);
  });
  after(() => t.close());

  it("lets a viewer's key read links and stats, and refuses every write with 315", async () => {
    const key = keys.viewer;
    for (const path of ['/links', `/links/${code}`, `/links/${code}/stats`, '/stats', '/groups']) {
      assert.equal((await callApi(t.app, 'GET', path, { key })).status, 200, path);
    }
    const writes = [
      ['POST', '/links', { url: 'https://example.com/by-viewer' }],
      ['PATCH', `/links/${code}`, { title: 'viewer was here' }],
      ['DELETE', `/links/${code}`, undefined],
      ['POST', '/groups', { name: 'Viewers' }],
      ['PATCH', `/groups/${group}`, { name: 'Renamed' }],
      ['DELETE', `/groups/${group}`, undefined],
    ] as const;
    for (const [method, path, body] of writes) {
      assertProblem(await callApi(t.app, method, path, { key, body }), 403, '315');
    }
    assertEnvelopeRefusal(await createJson(t.app, key, { url: 'https://example.com/by-viewer' }), 403, '315');
    const link = await callApi(t.app, 'GET', `/links/${code}`, { key });
    assert.equal(link.body.title, 'A page', 'the link is unchanged');
    const groups = (await callApi(t.app, 'GET', '/groups', { key })).body.items as {
      id: number;
      name: string;
    }[];
    assert.equal(groups.find((g) => g.id === group)?.name, 'Team', 'the group is unchanged');
  });

  it("lets a member's key create and edit links on both APIs but not touch members", async () => {
    const key = keys.member;
    const created = await createJson(t.app, key, { url: 'https://example.com/member-create' });
    assert.equal(created.status, 201);
    const edited = await callApi(t.app, 'PATCH', `/links/${code}`, { key, body: { title: 'Edited' } });
    assert.equal(edited.status, 200);
    assertProblem(await callApi(t.app, 'GET', '/members', { key }), 403, '315');
    const body = { role: 'viewer' };
    assertProblem(await callApi(t.app, 'PATCH', '/members/vi@example.com', { key, body }), 403, '315');
  });

  it('describes the key’s workspace on /workspace, and keeps /account’s fields exactly', async () => {
    const links = (await callApi(t.app, 'GET', '/links', { key: keys.owner })).body.items as unknown[];
    const workspace = await callApi(t.app, 'GET', '/workspace', { key: keys.viewer });
    assert.equal(workspace.status, 200);
    const { requests_this_hour, ...rest } = workspace.body;
    assert.deepEqual(rest, {
      slug: 'works',
      name: 'Works Ltd',
      personal: false,
      role: 'viewer',
      timezone: 'UTC',
      track_conversions: false,
      email: 'vi@example.com',
      plan: 'tester',
      api_access: true,
      url_quota: 1000,
      links_used: links.length,
      rate_limit_per_hour: 1000,
    });
    assert.ok(Number.isInteger(requests_this_hour) && Number(requests_this_hour) >= 1);
    const account = await callApi(t.app, 'GET', '/account', { key: keys.viewer });
    assert.deepEqual(Object.keys(account.body).sort(), [
      'api_access',
      'email',
      'links_used',
      'plan',
      'rate_limit_per_hour',
      'requests_this_hour',
      'url_quota',
    ]);
    assert.equal(account.body.links_used, links.length);
    assert.equal(account.body.requests_this_hour, Number(requests_this_hour) + 1);
    const personal = await callApi(t.app, 'GET', '/workspace', { key: t.apiKey });
    assert.equal(personal.body.personal, true);
    assert.equal(personal.body.role, 'owner');
    assert.equal(personal.body.email, t.email);
    assert.equal(personal.body.links_used, 0, 'the links of the team are not the personal workspace’s');
  });
});

describe('quota and duplicates per workspace', () => {
  let t: TestApp;
  const snip = operator(() => t);
  before(async () => {
    t = await startTestApp();
    await t.ops.savePlan('tiny', { apiAccess: true, urlQuota: 2, rateLimitPerHour: 1000 });
  });
  after(() => t.close());

  it('refuses a URL twice in one workspace (305) whichever member sends it, and its quota (304)', async () => {
    const quinnPersonal = await snip.user('quinn@example.com');
    await snip.user('max@example.com');
    await snip.ok('workspace', 'create', 'tiny', '--owner', 'quinn@example.com', '--plan', 'tiny');
    await snip.ok('member', 'add', 'tiny', 'max@example.com', '--role', 'admin');
    const quinn = await snip.key('tiny', 'quinn@example.com');
    const max = await snip.key('tiny', 'max@example.com');
    const first = await createJson(t.app, quinn, { url: 'https://example.com/same' });
    assert.equal(first.status, 201);
    const twice = await createJson(t.app, max, { url: 'https://example.com/same' });
    assertEnvelopeRefusal(twice, 409, '305');
    assert.equal(twice.headers.location, first.body.short_url);
    const body = { url: 'https://example.com/same' };
    assertProblem(await callApi(t.app, 'POST', '/links', { key: max, body }), 409, '305');
    for (const key of [t.apiKey, quinnPersonal]) {
      assert.equal((await createJson(t.app, key, body)).status, 201, 'another workspace may hold it');
    }
    assert.equal((await createJson(t.app, max, { url: 'https://example.com/second' })).status, 201);
    assertEnvelopeRefusal(await createJson(t.app, quinn, { url: 'https://example.com/third' }), 403, '304');
    const third = { url: 'https://example.com/third' };
    assertProblem(await callApi(t.app, 'POST', '/links', { key: max, body: third }), 403, '304');
    assert.equal(
      (await createJson(t.app, quinnPersonal, third)).status,
      201,
      'the personal quota is its own',
    );
    const tiny = await callApi(t.app, 'GET', '/workspace', { key: max });
    assert.deepEqual([tiny.body.links_used, tiny.body.url_quota], [2, 2]);
  });
});

describe('the hourly window of a workspace', () => {
  it('is shared by every key of the workspace, on /create and /api/v1, and by no other workspace', async () => {
    let now = Date.UTC(2026, 5, 1, 10, 30, 0);
    const t = await startTestApp({ now: () => now });
    const snip = operator(() => t);
    try {
      await t.ops.savePlan('hourly', { apiAccess: true, urlQuota: 100, rateLimitPerHour: 3 });
      const hannahPersonal = await snip.user('hannah@example.com');
      await snip.user('hugo@example.com');
      await snip.ok('workspace', 'create', 'clock', '--owner', 'hannah@example.com', '--plan', 'hourly');
      await snip.ok('member', 'add', 'clock', 'hugo@example.com', '--role', 'admin');
      const hannah = await snip.key('clock', 'hannah@example.com');
      const hugo = await snip.key('clock', 'hugo@example.com');
      const first = await callApi(t.app, 'GET', '/links', { key: hannah });
      assert.deepEqual([first.headers['ratelimit-limit'], first.headers['ratelimit-remaining']], ['3', '2']);
      const made = await createJson(t.app, hugo, { url: 'https://example.com/hour' });
      assert.equal(made.headers['ratelimit-remaining'], '1');
      assert.equal((await callApi(t.app, 'GET', '/workspace', { key: hugo })).body.requests_this_hour, 3);
      const limited = await callApi(t.app, 'GET', '/links', { key: hannah });
      assertProblem(limited, 429, '429');
      assert.equal(limited.headers['retry-after'], '1800');
      assertEnvelopeRefusal(await createJson(t.app, hugo, { url: 'https://example.com/h2' }), 429, '429');
      assert.equal((await callApi(t.app, 'GET', '/links', { key: hannahPersonal })).status, 200);
      now = Date.UTC(2026, 5, 1, 11, 0, 0);
      assert.equal((await callApi(t.app, 'GET', '/links', { key: hugo })).status, 200);
    } finally {
      await t.close();
    }
  });
});

describe('an invitation after 7 days', () => {
  it('is no longer listed and its link grants nothing (410)', async () => {
    let now = Date.now();
    const t = await startTestApp({ now: () => now });
    const snip = operator(() => t);
    try {
      for (const who of ['otto', 'ines']) await snip.user(`${who}@example.com`);
      await snip.ok('workspace', 'create', 'later', '--owner', 'otto@example.com');
      const key = await snip.key('later', 'otto@example.com');
      const body = { email: 'ines@example.com', role: 'member' };
      const made = await callApi(t.app, 'POST', '/invitations', { key, body });
      assert.equal(made.status, 201);
      now += 7 * DAY_MS - 60_000;
      const listed = (await callApi(t.app, 'GET', '/invitations', { key })).body.items as unknown[];
      assert.equal(listed.length, 1, 'still pending a minute before');
      now += 120_000;
      assert.deepEqual((await callApi(t.app, 'GET', '/invitations', { key })).body.items, []);
      const ines = new PageClient(t.app);
      assert.equal((await ines.signIn('ines@example.com', PASSWORD)).statusCode, 303);
      const path = pathOf(made.body.url);
      assert.equal((await ines.get(path)).statusCode, 410);
      assert.equal((await ines.post(`${path}/accept`)).statusCode, 410);
      assert.deepEqual(await roles(t, key), { 'otto@example.com': 'owner' });
    } finally {
      await t.close();
    }
  });
});
