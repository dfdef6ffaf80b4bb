import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Workspace } from '../../../src/core/entities.ts';
import { apiAccess } from '../../../src/features/workspaces/api-access.ts';
import { workspaceAdmin } from '../../../src/features/workspaces/index.ts';
import { membersService } from '../../../src/features/workspaces/members.ts';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * The workspace's time zone on /api/v1 (docs/api.md §18): GET /workspace shows it, UTC by default;
 * PATCH /workspace {timezone} changes it for a key of an admin or owner, refuses an unknown zone
 * with 300 and any other role with 315, changing nothing.
 */

describe('the workspace time zone on /api/v1', () => {
  let t: TestApp;
  let acme: Workspace;
  const keys: Record<'admin' | 'member', string> = { admin: '', member: '' };

  before(async () => {
    t = await startTestApp();
    for (const email of ['ada@example.com', 'mo@example.com']) await t.ops.createAccount(email, 'tester');
    acme = await workspaceAdmin(t.store).create('acme', 'ada@example.com', 'tester', 'Acme');
    const members = membersService(t.store);
    for (const [who, role] of [
      ['ada', 'admin'],
      ['mo', 'member'],
    ] as const) {
      const user = await t.store.findUserByEmail(`${who}@example.com`);
      assert.ok(user);
      if (role === 'member') await members.add(acme, `${who}@example.com`, 'admin');
      const maker = { userId: user.id, role: 'admin' } as const;
      keys[role] = await apiAccess(t.store).add(acme, maker, `${who}'s key`, ['links:read']);
      // Made while an admin: the maker's role now is what bounds the key.
      if (role === 'member') await t.store.changeRole(acme.id, user.id, 'member');
    }
  });
  after(() => t.close());

  const zoneOf = async () => (await t.store.findWorkspaceById(acme.id))?.timezone;

  it('shows UTC until a zone is set', async () => {
    const answer = await callApi(t.app, 'GET', '/workspace', { key: keys.member });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.timezone, 'UTC');
    const account = await callApi(t.app, 'GET', '/account', { key: keys.member });
    assert.equal(account.body.timezone, undefined, '/account keeps its fields');
  });

  it('changes the zone for a key of an owner or admin, and shows it after', async () => {
    const body = { timezone: 'Europe/Paris' };
    const patched = await callApi(t.app, 'PATCH', '/workspace', { key: keys.admin, body });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.timezone, 'Europe/Paris');
    assert.equal(patched.body.slug, 'acme');
    assert.equal(await zoneOf(), 'Europe/Paris');
    const shown = await callApi(t.app, 'GET', '/workspace', { key: keys.member });
    assert.equal(shown.body.timezone, 'Europe/Paris');
    const utc = await callApi(t.app, 'PATCH', '/workspace', { key: keys.admin, body: { timezone: 'UTC' } });
    assert.equal(utc.body.timezone, 'UTC');
    const unchanged = await callApi(t.app, 'PATCH', '/workspace', { key: keys.admin, body: {} });
    assert.equal(unchanged.status, 200);
    assert.equal(unchanged.body.timezone, 'UTC');
  });

  it('refuses an unknown zone, or one of the wrong type or an unknown field, with 300', async () => {
    await callApi(t.app, 'PATCH', '/workspace', { key: keys.admin, body: { timezone: 'Asia/Tokyo' } });
    for (const body of [
      { timezone: 'Mars/Olympus_Mons' },
      { timezone: '' },
      { timezone: 'europe/paris' },
      { timezone: '+02:00' },
      { timezone: 7 },
      { timezone: null },
      { timezone: 'x'.repeat(100) },
      { name: 'Renamed' },
    ]) {
      const answer = await callApi(t.app, 'PATCH', '/workspace', { key: keys.admin, body });
      assertProblem(answer, 400, '300');
    }
    assert.equal(await zoneOf(), 'Asia/Tokyo', 'nothing changed');
  });

  it("refuses a key whose maker's role may not change settings with 315", async () => {
    const body = { timezone: 'America/New_York' };
    assertProblem(await callApi(t.app, 'PATCH', '/workspace', { key: keys.member, body }), 403, '315');
    assert.equal(await zoneOf(), 'Asia/Tokyo');
  });

  it('keeps a zone per workspace', async () => {
    const personal = await callApi(t.app, 'GET', '/workspace', { key: t.apiKey });
    assert.equal(personal.body.timezone, 'UTC');
    const body = { timezone: 'Australia/Lord_Howe' };
    const patched = await callApi(t.app, 'PATCH', '/workspace', { key: t.apiKey, body });
    assert.equal(patched.body.timezone, 'Australia/Lord_Howe');
    assert.equal(await zoneOf(), 'Asia/Tokyo');
    // A current IANA name the runtime lists under an older one is a zone too.
    const current = await callApi(t.app, 'PATCH', '/workspace', {
      key: t.apiKey,
      body: { timezone: 'Asia/Kolkata' },
    });
    assert.equal(current.body.timezone, 'Asia/Kolkata');
  });

  it('answers other methods 405 with Allow naming PATCH', async () => {
    const answer = await callApi(t.app, 'PUT', '/workspace', { key: keys.admin, body: {} });
    assert.equal(answer.status, 405);
    assert.match(String(answer.headers.allow), /PATCH/);
  });
});
