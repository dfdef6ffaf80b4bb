import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Role } from '../../../src/core/authorization.ts';
import type { Workspace } from '../../../src/core/entities.ts';
import { newLinkToken } from '../../../src/core/link-token.ts';
import { apiAccess } from '../../../src/features/workspaces/api-access.ts';
import { workspaceAdmin } from '../../../src/features/workspaces/index.ts';
import { membersService, OPERATOR } from '../../../src/features/workspaces/members.ts';
import { attribute, listedCodes, PageClient } from '../../fixtures/page-client.ts';
import { withoutTokens } from '../../fixtures/without-tokens.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * The workspace pages (docs/api.md §11): /w/<slug>/… for members only, forms only where the role
 * allows them (core/authorization.ts), the old /dashboard addresses, the Members, Settings and
 * Account pages, invitations from the link to the switcher, and the workspace's name escaped.
 */

const PASSWORD = 'correct horse battery';
const DAY_MS = 86_400_000;

interface Team {
  t: TestApp;
  acme: Workspace;
  /** Each person's personal workspace slug. */
  personal: Map<string, string>;
}

/** An app with a team workspace "acme" (named Acme) and people in it with their roles. */
async function startTeam(people: ReadonlyArray<readonly [string, Role | 'none']>): Promise<Team> {
  const t = await startTestApp();
  const personal = new Map<string, string>();
  for (const [email] of people) {
    const { account } = await t.ops.createAccount(email, 'tester', PASSWORD);
    personal.set(email, account.workspace.slug);
  }
  const owner = people.find(([, role]) => role === 'owner')?.[0] ?? t.email;
  const acme = await workspaceAdmin(t.store).create('acme', owner, 'tester', 'Acme');
  for (const [email, role] of people) {
    if (email !== owner && role !== 'none') await membersService(t.store).add(acme, email, role);
  }
  return { t, acme, personal };
}

async function signedIn(t: TestApp, email: string): Promise<PageClient> {
  const client = new PageClient(t.app);
  assert.equal((await client.signIn(email, PASSWORD)).statusCode, 303);
  return client;
}

/** The main navigation of a page, where the workspace links and the switcher are. */
const nav = (body: string) => /<nav aria-label="Main"[^>]*>[\s\S]*?<\/nav>/.exec(body)?.[0] ?? '';
const switcher = (body: string) => /<details class="switcher">[\s\S]*?<\/details>/.exec(body)?.[0] ?? '';
const row = (body: string, email: string) =>
  new RegExp(`<tr data-member="${email}"[\\s\\S]*?</tr>`).exec(body)?.[0] ?? '';

async function roles(t: TestApp, workspace: Workspace): Promise<Record<string, Role>> {
  const members = await t.store.listMembers(workspace.id);
  return Object.fromEntries(members.map((m) => [m.email, m.role]));
}

describe('the old addresses and the last workspace', () => {
  let team: Team;
  before(async () => {
    team = await startTeam([
      ['ann@example.com', 'owner'],
      ['out@example.com', 'none'],
    ]);
  });
  after(() => team.t.close());

  it('sends /dashboard and /dashboard/stats to the same page of the last workspace opened', async () => {
    const client = await signedIn(team.t, 'ann@example.com');
    const first = (await client.get('/dashboard')).headers.location;
    assert.ok(typeof first === 'string' && /^\/w\/[a-z0-9-]+$/.test(first), `sent to ${first}`);
    const other = first === '/w/acme' ? `/w/${team.personal.get('ann@example.com')}` : '/w/acme';
    for (const slugPath of [other, first]) {
      assert.equal((await client.open(slugPath)).statusCode, 200);
      const dashboard = await client.get('/dashboard');
      assert.equal(dashboard.statusCode, 303);
      assert.equal(dashboard.headers.location, slugPath, 'the workspace opened last');
      const stats = await client.get('/dashboard/stats?days=7');
      assert.equal(stats.statusCode, 303);
      assert.equal(stats.headers.location, `${slugPath}/stats?days=7`, 'the same page, its query kept');
    }
  });

  it('answers 404 for a workspace the user is not in, as for one that does not exist', async () => {
    const client = await signedIn(team.t, 'out@example.com');
    for (const path of ['/w/acme', '/w/acme/stats', '/w/acme/members', '/w/acme/settings', '/w/nowhere']) {
      const page = await client.get(path);
      assert.equal(page.statusCode, 404, path);
      assert.equal(attribute(page.body, 'data-error'), 'not-found', path);
      assert.doesNotMatch(withoutTokens(page.body), /Acme/, 'not even its name is told');
    }
    assert.equal((await new PageClient(team.t.app).get('/w/acme')).headers.location, '/login');
  });
});

describe('what each role sees and may send', () => {
  let team: Team;
  let code = '';
  let groupId = 0;
  let keyId = 0;
  let invitationId = 0;
  before(async () => {
    team = await startTeam([
      ['olga@example.com', 'owner'],
      ['max@example.com', 'member'],
      ['vic@example.com', 'viewer'],
    ]);
    const owner = await signedIn(team.t, 'olga@example.com');
    await owner.open('/w/acme');
    const made = await owner.post('/w/acme/links', { url: 'https://example.com/launch' });
    assert.equal(made.statusCode, 303);
    code = new URL(String(made.headers.location), 'https://sn.ip').searchParams.get('created') ?? '';
    assert.equal((await owner.post('/w/acme/groups', { name: 'Spring' })).statusCode, 303);
    groupId = (await team.t.store.listGroups(team.acme.id))[0]?.id ?? 0;
    const olga = await team.t.store.findUserByEmail('olga@example.com');
    const maker = { userId: olga?.id ?? 0, role: 'owner' } as const;
    await apiAccess(team.t.store).add(team.acme, maker, 'Report', ['links:read']);
    keyId = (await team.t.store.listLiveKeys(team.acme.id))[0]?.id ?? 0;
    const { hash } = newLinkToken();
    const invitation = await team.t.store.createInvitation({
      workspaceId: team.acme.id,
      email: 'later@example.com',
      role: 'member',
      tokenHash: hash,
      invitedBy: olga?.id ?? null,
      expiresAt: new Date(Date.now() + DAY_MS),
    });
    invitationId = invitation.id;
  });
  after(() => team.t.close());

  /** Everything a form of the workspace could change. */
  async function state() {
    const { store } = team.t;
    const id = team.acme.id;
    return {
      links: (await store.listLinks(id, { limit: 100 })).links.map((l) => [l.code, l.longUrl, l.title]),
      groups: (await store.listGroups(id)).map((g) => [g.id, g.name, g.apiId]),
      keys: (await store.listLiveKeys(id)).map((k) => [k.id, k.prefix, k.name]),
      members: await roles(team.t, team.acme),
      invitations: (await store.listInvitations(id, new Date())).map((i) => [i.id, i.email, i.role]),
      name: (await store.findWorkspaceById(id))?.name,
    };
  }

  it('shows a viewer the links and stats, without forms that change them or admin pages', async () => {
    const viewer = await signedIn(team.t, 'vic@example.com');
    const dashboard = await viewer.open('/w/acme');
    assert.equal(dashboard.statusCode, 200);
    assert.deepEqual(listedCodes(dashboard.body), [code]);
    assert.doesNotMatch(dashboard.body, /action="\/w\/acme\/links"/, 'no create form');
    assert.doesNotMatch(dashboard.body, /action="\/w\/acme\/links\/[^"]*\/delete"/, 'no delete');
    assert.doesNotMatch(dashboard.body, /action="\/w\/acme\/groups/, 'no group forms');
    assert.match(dashboard.body, /Spring/, 'the groups are listed');
    for (const page of ['/members', '/keys', '/settings']) {
      assert.doesNotMatch(nav(dashboard.body), new RegExp(`href="/w/acme${page}"`), page);
    }
    const link = await viewer.open(`/w/acme/links/${code}`);
    assert.equal(link.statusCode, 200);
    assert.doesNotMatch(link.body, /<form method="post" action="\/w\/acme\/links\//, 'no edit or delete');
    assert.equal((await viewer.open('/w/acme/stats')).statusCode, 200);
    assert.equal((await viewer.open(`/w/acme/links/${code}/stats`)).statusCode, 200);
  });

  it("refuses every form of a viewer's session with 403, its token valid, and changes nothing", async () => {
    const viewer = await signedIn(team.t, 'vic@example.com');
    await viewer.open('/w/acme');
    assert.notEqual(viewer.csrf, '', "the session's token, from the sign-out form");
    const before = await state();
    const forms: Array<[string, Record<string, string>]> = [
      ['/w/acme/links', { url: 'https://example.com/viewer' }],
      [`/w/acme/links/${code}`, { url: 'https://example.com/changed', title: 'Changed', group: '' }],
      [`/w/acme/links/${code}/delete`, {}],
      ['/w/acme/groups', { name: 'Viewer group' }],
      [`/w/acme/groups/${groupId}`, { name: 'Renamed', api_id: 'renamed' }],
      [`/w/acme/groups/${groupId}/delete`, {}],
      ['/w/acme/keys/main', { understand: 'yes' }],
      ['/w/acme/keys', { name: 'Mine', scopes: 'links:read' }],
      [`/w/acme/keys/${keyId}/revoke`, {}],
      ['/w/acme/invitations', { email: 'friend@example.com', role: 'viewer' }],
      [`/w/acme/invitations/${invitationId}/revoke`, {}],
      ['/w/acme/members/role', { email: 'vic@example.com', role: 'owner' }],
      ['/w/acme/members/remove', { email: 'max@example.com' }],
      ['/w/acme/settings', { name: 'Taken over' }],
    ];
    for (const [path, fields] of forms) {
      const refused = await viewer.post(path, fields);
      assert.equal(refused.statusCode, 403, path);
      assert.equal(attribute(refused.body, 'data-error'), 'forbidden', path);
    }
    assert.deepEqual(await state(), before);
  });

  it('lets a member make links but not open Members, Keys or Settings', async () => {
    const member = await signedIn(team.t, 'max@example.com');
    const dashboard = await member.open('/w/acme');
    assert.match(dashboard.body, /action="\/w\/acme\/links"/, 'the create form is shown');
    assert.doesNotMatch(nav(dashboard.body), /href="\/w\/acme\/(members|keys|settings)"/);
    const made = await member.post('/w/acme/links', { url: 'https://example.com/by-member' });
    assert.equal(made.statusCode, 303);
    const links = await team.t.store.listLinks(team.acme.id, { limit: 100 });
    assert.ok(links.links.some((l) => l.longUrl === 'https://example.com/by-member'));
    for (const page of ['/members', '/keys', '/settings']) {
      const refused = await member.get(`/w/acme${page}`);
      assert.equal(refused.statusCode, 403, page);
      assert.equal(attribute(refused.body, 'data-error'), 'forbidden', page);
    }
  });
});

describe('an invitation from the Members page to the switcher', () => {
  let team: Team;
  let admin: PageClient;
  before(async () => {
    team = await startTeam([
      ['olga@example.com', 'owner'],
      ['ada@example.com', 'admin'],
      ['carol@example.com', 'none'],
      ['dave@example.com', 'none'],
    ]);
    admin = await signedIn(team.t, 'ada@example.com');
  });
  after(() => team.t.close());

  async function invite(email: string, role: Role): Promise<string> {
    await admin.open('/w/acme/members');
    const made = await admin.post('/w/acme/invitations', { email, role });
    assert.equal(made.statusCode, 201);
    assert.equal(attribute(made.body, 'data-state'), 'invitation-made');
    const url = /<code id="invitation-url">([^<]+)<\/code>/.exec(made.body)?.[1];
    assert.ok(url, 'the link is shown to copy');
    assert.match(
      made.body,
      new RegExp(`<tr data-invitation="\\d+">\\s*<td data-label="Email"><span class="truncate">${email}`),
    );
    return new URL(url).pathname;
  }

  it('lets the invited person sign up through the link, accept, and find the workspace', async () => {
    const path = await invite('newbie@example.com', 'member');
    const newbie = new PageClient(team.t.app);
    const offer = await newbie.get(path);
    assert.equal(offer.statusCode, 200);
    const signup = /href="(\/signup\?[^"]+)"/.exec(offer.body)?.[1]?.replaceAll('&amp;', '&');
    assert.ok(signup, 'a "Create an account" link');
    const query = new URL(signup, 'https://sn.ip').searchParams;
    assert.deepEqual([query.get('next'), query.get('email')], [path, 'newbie@example.com']);
    const form = await newbie.open(signup);
    assert.match(form.body, /name="email"[^>]*value="newbie@example\.com"/);
    const created = await newbie.post('/signup', {
      email: 'newbie@example.com',
      password: PASSWORD,
      next: path,
    });
    assert.equal(created.statusCode, 303);
    assert.equal(created.headers.location, path, 'back on the invitation');

    const signedInOffer = await newbie.open(path);
    assert.equal(signedInOffer.statusCode, 200);
    assert.match(signedInOffer.body, new RegExp(`action="${path}/accept"`));
    const accepted = await newbie.post(`${path}/accept`);
    assert.equal(accepted.statusCode, 303);
    assert.equal(accepted.headers.location, '/w/acme');
    assert.equal((await roles(team.t, team.acme))['newbie@example.com'], 'member');

    const own = (await team.t.store.findAccountByEmail('newbie@example.com'))?.workspace.slug;
    const joined = await newbie.open('/w/acme');
    assert.equal(joined.statusCode, 200);
    assert.match(switcher(joined.body), new RegExp(`<a href="/w/${own}">`), 'the other workspace offered');
    const ownPage = await newbie.open(`/w/${own}`);
    assert.match(switcher(ownPage.body), /<a href="\/w\/acme">Acme<\/a>/, 'in the switcher');
    const account = await newbie.open('/account');
    assert.match(account.body, /<tr data-workspace="acme">[\s\S]*?data-role="member"/, 'on /account');

    const again = await newbie.post(`${path}/accept`);
    assert.equal(again.statusCode, 410, 'used once');
    assert.equal(attribute(again.body, 'data-error'), 'invitation-gone');
    assert.equal((await newbie.get(path)).statusCode, 410);
  });

  it('answers 410 for an expired invitation and grants nothing', async () => {
    const { token, hash } = newLinkToken();
    await team.t.store.createInvitation({
      workspaceId: team.acme.id,
      email: 'dave@example.com',
      role: 'admin',
      tokenHash: hash,
      invitedBy: null,
      expiresAt: new Date(Date.now() - 1000),
    });
    const dave = await signedIn(team.t, 'dave@example.com');
    const offer = await dave.get(`/invitations/${token}`);
    assert.equal(offer.statusCode, 410);
    assert.equal(attribute(offer.body, 'data-error'), 'invitation-gone');
    assert.equal((await dave.post(`/invitations/${token}/accept`)).statusCode, 410);
    assert.equal((await roles(team.t, team.acme))['dave@example.com'], undefined);
  });

  it('refuses an invitation to someone signed in as another email with 403, leaving it to its person', async () => {
    const path = await invite('carol@example.com', 'viewer');
    const dave = await signedIn(team.t, 'dave@example.com');
    const offer = await dave.get(path);
    assert.equal(offer.statusCode, 403);
    assert.equal(attribute(offer.body, 'data-error'), 'invitation-other-email');
    const refused = await dave.post(`${path}/accept`);
    assert.equal(refused.statusCode, 403);
    assert.equal(attribute(refused.body, 'data-error'), 'invitation-other-email');
    const after = await roles(team.t, team.acme);
    assert.deepEqual([after['dave@example.com'], after['carol@example.com']], [undefined, undefined]);
    const carol = await signedIn(team.t, 'carol@example.com');
    await carol.open(path);
    assert.equal((await carol.post(`${path}/accept`)).statusCode, 303, 'still good for carol');
    assert.equal((await roles(team.t, team.acme))['carol@example.com'], 'viewer');
  });
});

describe('owners on the Members page', () => {
  let team: Team;
  before(async () => {
    team = await startTeam([
      ['olga@example.com', 'owner'],
      ['ada@example.com', 'admin'],
      ['max@example.com', 'member'],
    ]);
  });
  after(() => team.t.close());

  it("shows an admin no form for an owner's role or removal, and refuses them when posted", async () => {
    const admin = await signedIn(team.t, 'ada@example.com');
    const page = await admin.open('/w/acme/members');
    assert.equal(page.statusCode, 200);
    const owner = row(page.body, 'olga@example.com');
    assert.ok(owner !== '' && !owner.includes('<select') && !owner.includes('/members/remove'));
    assert.match(row(page.body, 'max@example.com'), /<select name="role">/, "a member's role is");
    assert.doesNotMatch(row(page.body, 'max@example.com'), /<option value="owner"/, 'but not to owner');
    const before = await roles(team.t, team.acme);
    for (const [path, fields] of [
      ['/w/acme/members/role', { email: 'olga@example.com', role: 'viewer' }],
      ['/w/acme/members/remove', { email: 'olga@example.com' }],
      ['/w/acme/members/role', { email: 'max@example.com', role: 'owner' }],
    ] as const) {
      const refused = await admin.post(path, fields);
      assert.equal(refused.statusCode, 403, `${path} ${fields.email}`);
      assert.equal(attribute(refused.body, 'data-error'), 'forbidden');
    }
    assert.deepEqual(await roles(team.t, team.acme), before);
    const changed = await admin.post('/w/acme/members/role', { email: 'max@example.com', role: 'viewer' });
    assert.equal(changed.statusCode, 303, "a member's role it may change");
    assert.equal((await roles(team.t, team.acme))['max@example.com'], 'viewer');
  });

  it('offers the last owner no role change nor removal of themselves, but each of two owners both', async () => {
    const owner = await signedIn(team.t, 'olga@example.com');
    const alone = row((await owner.open('/w/acme/members')).body, 'olga@example.com');
    assert.ok(alone.includes('data-role="owner"'), alone);
    assert.doesNotMatch(alone, /<select|\/members\/remove|\/members\/role/);
    assert.match(row((await owner.open('/w/acme/members')).body, 'ada@example.com'), /\/members\/remove/);
    await membersService(team.t.store).changeRole(team.acme, OPERATOR, 'ada@example.com', 'owner');
    try {
      const page = (await owner.open('/w/acme/members')).body;
      for (const email of ['olga@example.com', 'ada@example.com']) {
        assert.match(row(page, email), /<select name="role">/, `${email}'s role`);
        assert.match(row(page, email), /\/members\/remove/, `${email}'s removal`);
      }
    } finally {
      await membersService(team.t.store).changeRole(team.acme, OPERATOR, 'ada@example.com', 'admin');
    }
  });

  it("answers the last owner's own demotion or leaving with a 409 page, code 319", async () => {
    const owner = await signedIn(team.t, 'olga@example.com');
    await owner.open('/w/acme/members');
    const demoted = await owner.post('/w/acme/members/role', { email: 'olga@example.com', role: 'admin' });
    assert.equal(demoted.statusCode, 409);
    assert.equal(attribute(demoted.body, 'data-error'), '319');
    const left = await owner.post('/w/acme/leave');
    assert.equal(left.statusCode, 409);
    assert.equal(attribute(left.body, 'data-error'), '319');
    assert.equal((await roles(team.t, team.acme))['olga@example.com'], 'owner');
  });
});

describe("the workspace's name", () => {
  let team: Team;
  before(async () => {
    team = await startTeam([
      ['olga@example.com', 'owner'],
      ['ada@example.com', 'admin'],
      ['max@example.com', 'member'],
    ]);
  });
  after(() => team.t.close());

  it('is renamed in Settings and shown so in the switcher', async () => {
    const admin = await signedIn(team.t, 'ada@example.com');
    await admin.open('/w/acme/settings');
    const saved = await admin.post('/w/acme/settings', { name: 'Acme Labs' });
    assert.equal(saved.statusCode, 303);
    assert.equal(saved.headers.location, '/w/acme/settings?done=renamed');
    const here = await admin.open('/w/acme');
    assert.match(switcher(here.body), /<summary[^>]*>Acme Labs<\/summary>/);
    const own = await admin.open(`/w/${team.personal.get('ada@example.com')}`);
    assert.match(switcher(own.body), /<a href="\/w\/acme">Acme Labs<\/a>/);
  });

  it('is escaped on every page that shows it', async () => {
    const hostile = '<script>alert("owned")</script>';
    await team.t.store.renameWorkspace(team.acme.id, hostile);
    const admin = await signedIn(team.t, 'ada@example.com');
    await admin.open('/w/acme');
    const link = await admin.post('/w/acme/links', { url: 'https://example.com/escaped' });
    const code = new URL(String(link.headers.location), 'https://sn.ip').searchParams.get('created');
    await admin.open('/w/acme/members');
    const invited = await admin.post('/w/acme/invitations', { email: 'newbie@example.com', role: 'viewer' });
    const invitation = new URL(/<code id="invitation-url">([^<]+)</.exec(invited.body)?.[1] ?? '').pathname;
    const member = await signedIn(team.t, 'max@example.com');
    const pages: Array<[string, PageClient, string, number]> = [
      ['dashboard', admin, '/w/acme', 200],
      ['stats', admin, '/w/acme/stats', 200],
      ['link', admin, `/w/acme/links/${code}`, 200],
      ['members', admin, '/w/acme/members', 200],
      ['keys', admin, '/w/acme/keys', 200],
      ['settings', admin, '/w/acme/settings', 200],
      ['account', admin, '/account', 200],
      ['personal switcher', admin, `/w/${team.personal.get('ada@example.com')}`, 200],
      ['forbidden page', member, '/w/acme/settings', 403],
      ['invitation, signed out', new PageClient(team.t.app), invitation, 200],
    ];
    const answers = pages.map(async ([name, client, path, status]) => {
      const page = await client.get(path);
      return [name, page.statusCode === status, page.body] as const;
    });
    answers.push(Promise.resolve(['invitation made', invited.statusCode === 201, invited.body] as const));
    for (const [name, ok, body] of await Promise.all(answers)) {
      assert.ok(ok, `${name}: status`);
      assert.ok(!body.includes('<script>alert'), `${name}: not escaped`);
      assert.match(body, /(&lt;|&#60;)script(&gt;|&#62;)alert\(/, `${name}: the name is shown, escaped`);
    }
  });
});
