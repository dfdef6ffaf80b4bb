import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Workspace } from '../../../src/core/entities.ts';
import { nextHealth } from '../../../src/core/link-health.ts';
import { workspaceAdmin } from '../../../src/features/workspaces/index.ts';
import { membersService } from '../../../src/features/workspaces/members.ts';
import { newLink } from '../../adapters/contract/store-contract.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { registeredRoutes } from '../../fixtures/registered-routes.ts';
import { createJson, startTestApp, type TestApp } from '../../helper.ts';

/**
 * The operator console (docs/api.md §13): only operators see /admin (anyone else, signed in or not,
 * the not-found answer of an unknown address), every form needs the session's token; users, workspaces, links, reports,
 * blocklists and the audit log each do their actions idempotently and show what a visitor wrote as
 * text; a workspace's owners and admins read its own audit log.
 */

const PASSWORD = 'correct horse battery';
const OPERATOR = 'op@example.com';

interface Console {
  t: TestApp;
  op: PageClient;
  acme: Workspace;
  /** Codes of links of the seed account: to evil.example and to good.example. */
  evil: string;
  good: string;
  evilId: number;
}

async function signedIn(t: TestApp, email: string): Promise<PageClient> {
  const client = new PageClient(t.app);
  assert.equal((await client.signIn(email, PASSWORD)).statusCode, 303);
  return client;
}

async function startConsole(): Promise<Console> {
  const t = await startTestApp();
  try {
    return await seed(t);
  } catch (error) {
    await t.close();
    throw error;
  }
}

async function seed(t: TestApp): Promise<Console> {
  await t.ops.savePlan('big', { apiAccess: true, urlQuota: 100_000, rateLimitPerHour: 10_000 });
  for (const email of [OPERATOR, 'pat@example.com', 'ann@example.com', 'adm@example.com', 'mem@example.com'])
    await t.ops.createAccount(email, 'tester', PASSWORD);
  const operator = await t.store.findUserByEmail(OPERATOR);
  assert.ok(operator);
  await t.store.setUserOperator(operator.id, true);
  const acme = await workspaceAdmin(t.store).create('acme', 'ann@example.com', 'tester', 'Acme');
  await membersService(t.store).add(acme, 'adm@example.com', 'admin');
  await membersService(t.store).add(acme, 'mem@example.com', 'member');
  const made = async (url: string) => {
    const answer = await createJson(t.app, t.apiKey, { url });
    assert.equal(answer.status, 201);
    return String(answer.body.short_code);
  };
  const evil = await made('https://evil.example/login?next=1');
  const good = await made('https://good.example/page');
  const evilLink = await t.store.findLinkByCode(0, evil);
  assert.ok(evilLink);
  const op = await signedIn(t, OPERATOR);
  return { t, op, acme, evil, good, evilId: evilLink.id };
}

/** Opens the section (for its token), posts the form, and answers the response. */
async function act(client: PageClient, page: string, form: string, fields: Record<string, string>) {
  await client.open(page);
  return client.post(form, fields);
}

function assertDone(response: { statusCode: number; headers: Record<string, unknown> }, done: string) {
  assert.equal(response.statusCode, 303);
  assert.match(String(response.headers.location), new RegExp(`[?&]done=${done}(&|$)`));
}

describe('the operator console', () => {
  let c: Console;
  before(async () => {
    c = await startConsole();
  });
  after(() => c?.t.close());

  it('is not there for anyone but an operator: every method and path answers as an unknown address (404)', async () => {
    const anonymous = new PageClient(c.t.app);
    const pat = await signedIn(c.t, 'pat@example.com');
    const unknown = await anonymous.get('/no-such-page-here');
    assert.equal(unknown.statusCode, 404);
    const sections = [
      '/admin/users',
      '/admin/workspaces',
      '/admin/links',
      '/admin/reports',
      '/admin/blocklists',
    ];
    // Every registered console route, enumerated from the app, and a few no route has.
    const registered = registeredRoutes(c.t.app).filter(
      ([, path]) => path === '/admin' || path.startsWith('/admin/'),
    );
    for (const path of [...sections, '/admin/audit'])
      assert.ok(
        registered.some(([method, known]) => method === 'GET' && known === path),
        path,
      );
    assert.ok(registered.filter(([method]) => method === 'POST').length >= 15);
    const asked: [string, string][] = [
      ...registered,
      ['GET', '/admin/nope'],
      ['GET', '/admin/assets/dashboard.js'],
      ['DELETE', '/admin/users'],
      ['PUT', '/admin'],
      ['PATCH', '/admin/links'],
    ];
    // Each from its own loopback address, under the limit of unknown addresses one address may ask.
    let asker = 0;
    for (const client of [anonymous, pat]) {
      for (const [method, url] of asked) {
        asker += 1;
        const answer = await c.t.app.inject({
          method: method as 'GET',
          url,
          remoteAddress: `127.0.${asker >> 8}.${(asker & 255) + 1}`,
          headers: { cookie: client.cookieHeader, 'content-type': 'application/x-www-form-urlencoded' },
          payload:
            method === 'GET' || method === 'HEAD'
              ? undefined
              : `_csrf=${client.csrf}&id=${c.evilId}&reason=x`,
        });
        assert.equal(answer.statusCode, 404, `${method} ${url}`);
        assert.equal(answer.headers.location, undefined, `${method} ${url}`);
        if (method !== 'HEAD') assert.equal(answer.body, unknown.body, `${method} ${url}`);
      }
    }
    // Not even a body over a form's limit, nor one of a type no form takes, gives the console away.
    for (const [type, payload] of [
      ['application/x-www-form-urlencoded', `reason=${'x'.repeat(2_000_000)}`],
      ['application/xml', '<x/>'],
    ]) {
      const answer = await c.t.app.inject({
        method: 'POST',
        url: '/admin/users/suspend',
        headers: { cookie: pat.cookieHeader, 'content-type': type },
        payload,
      });
      assert.equal(answer.statusCode, 404, type);
    }
    assert.equal((await c.t.store.findLinkById(c.evilId))?.disabled, null);
    assert.equal((await c.t.store.findUserByEmail('pat@example.com'))?.suspendedAt, null);
    assert.doesNotMatch((await pat.open('/account')).body, /href="\/admin"/);
    assert.match((await c.op.open('/account')).body, /<a href="\/admin">Operator console<\/a>/);
    for (const path of ['/admin', ...sections, '/admin/audit'])
      assert.equal((await c.op.get(path)).statusCode, 200, path);
  });

  it('refuses a form without the session token (403) and changes nothing', async () => {
    await c.op.open('/admin/users');
    const forged = await c.op.post('/admin/users/suspend', { _csrf: '', email: 'pat@example.com' });
    assert.equal(forged.statusCode, 403);
    assert.equal(attribute(forged.body, 'data-error'), 'csrf');
    assert.equal((await c.t.store.findUserByEmail('pat@example.com'))?.suspendedAt, null);
  });

  it('opens every section', async () => {
    for (const path of [
      '/admin',
      '/admin/users',
      '/admin/workspaces',
      '/admin/links',
      '/admin/reports',
      '/admin/reports?status=all',
      '/admin/blocklists',
      '/admin/audit',
    ]) {
      const answer = await c.op.open(path);
      assert.equal(answer.statusCode, 200, path);
      assert.match(answer.body, /<nav class="presets" aria-label="Console">/);
    }
  });

  it('shows the totals, the 30-day trend, the newest links with workspace and owner, and the top workspaces', async () => {
    const today = new Date().toISOString().slice(0, 10);
    await c.t.store.addClicks([{ linkId: c.evilId, day: today, clicks: 3, botHits: 0 }]);
    const body = (await c.op.open('/admin')).body;
    const total = (name: string) =>
      Number(new RegExp(`data-total="${name}" data-value="(\\d+)"`).exec(body)?.[1]);
    assert.equal(total('users'), 6);
    assert.equal(total('links'), 2);
    assert.equal(total('clicks-today'), 3);
    assert.equal(total('clicks-30'), 3);
    assert.match(body, /data-chart="signups">[\s\S]*?<figure class="chart" data-total="6">/);
    assert.match(body, /data-chart="new-links">[\s\S]*?<figure class="chart" data-total="2">/);
    assert.match(body, new RegExp(`data-code="${c.evil}">[\\s\\S]*?data-owner="owner@example.com"`));
    assert.match(body, /data-top-workspace="[^"]+">[\s\S]*?data-clicks="3"/);
    assert.doesNotMatch(body, /href="https?:\/\/(evil|good)\.example/);
    // Two failed checks in a row make the link broken (docs/api.md §21): its workspace counts one.
    let link = await c.t.store.findLinkByCode(0, c.evil);
    for (let check = 0; check < 2 && link; check++) {
      const step = nextHealth(link.health, { code: '307', status: 404 }, Date.now());
      link = await c.t.store.recordCheck(link, step, Date.now() + 86_400_000);
    }
    assert.equal(link?.health.state, 'broken');
    const workspaces = (await c.op.open('/admin/workspaces')).body;
    assert.match(workspaces, /data-links="2">[\s\S]*?data-clicks="3"[\s\S]*?data-broken="1"/);
    const links = (await c.op.open('/admin/links')).body;
    assert.match(links, /data-searched="none"/);
    for (const code of [c.evil, c.good]) assert.match(links, new RegExp(`data-code="${code}"`));
  });

  it('shows a report’s target defanged, never as a link, with its workspace and owner; suspends in one click', async () => {
    const inserted = await c.t.store.insertLinkWithinQuota(
      newLink(c.acme.id, 'https://phish.example/acme?next=https://phish.example/x'),
    );
    assert.equal(inserted.kind, 'created');
    if (inserted.kind !== 'created') return;
    const report = await c.t.store.addReport({
      url: `https://sn.ip/${inserted.link.code}`,
      linkId: inserted.link.id,
      reason: 'phishing',
      comment: 'see https://phish.example/acme',
      email: null,
    });
    const page = (await c.op.open('/admin/reports')).body;
    assert.doesNotMatch(page, /phish\.example|https?:\/\/sn\.ip/);
    assert.match(page, /hxxps:\/\/phish\[\.\]example\/acme\?next=hxxps:\/\/phish\[\.\]example\/x/);
    assert.match(
      page,
      new RegExp(
        `data-report="${report.id}"[\\s\\S]*?data-workspace="acme"[\\s\\S]*?data-owner="ann@example.com"`,
      ),
    );
    assertDone(
      await act(c.op, '/admin/reports', '/admin/reports/resolve', {
        id: String(report.id),
        action: 'suspend',
      }),
      'resolved',
    );
    assert.notEqual((await c.t.store.findWorkspaceBySlug('acme'))?.suspended, null);
    const audit = await c.t.store.listAudit({ limit: 10 });
    assert.ok(audit.some((entry) => entry.action === 'workspace.suspend' && entry.target === 'acme'));
    assert.ok(audit.some((entry) => entry.action === 'report.resolve'));
    await c.t.store.setWorkspaceSuspended(c.acme.id, null);
  });

  it('finds links by code, short URL, host and URL, and says which it searched', async () => {
    const search = async (q: string) => (await c.op.open(`/admin/links?q=${encodeURIComponent(q)}`)).body;
    const codes = (body: string) =>
      [...body.matchAll(/<tr data-link="\d+" data-code="([^"]+)"/g)].map((m) => m[1]);
    let body = await search(c.evil);
    assert.equal(attribute(body, 'data-searched'), 'code');
    assert.deepEqual(codes(body), [c.evil]);
    body = await search(`https://sn.ip/${c.good}`);
    assert.equal(attribute(body, 'data-searched'), 'short-url');
    assert.deepEqual(codes(body), [c.good]);
    body = await search('EVIL.example');
    assert.equal(attribute(body, 'data-searched'), 'host');
    assert.deepEqual(codes(body), [c.evil]);
    body = await search('https://good.example/pa');
    assert.equal(attribute(body, 'data-searched'), 'url');
    assert.deepEqual(codes(body), [c.good]);
    body = await search('https://nowhere.example/');
    assert.deepEqual(codes(body), []);
    assert.equal(attribute(body, 'data-state'), 'no-links');
    body = await search('not a thing at all');
    assert.equal(attribute(body, 'data-searched'), 'nothing');
  });

  it('disables a link with a reason, twice, then enables it; refuses no reason and no such link', async () => {
    const page = `/admin/links?q=${c.evil}`;
    for (let i = 0; i < 2; i++) {
      const done = await act(c.op, page, '/admin/links/disable', {
        id: String(c.evilId),
        reason: 'phishing',
        q: c.evil,
      });
      assertDone(done, 'disabled');
      assert.match(String(done.headers.location), new RegExp(`q=${c.evil}`));
    }
    assert.equal((await c.t.store.findLinkById(c.evilId))?.disabled?.reason, 'phishing');
    const shown = await c.op.open(page);
    assert.match(shown.body, /data-disabled="true"/);
    assert.equal((await c.t.app.inject(`/${c.evil}`)).statusCode, 410);
    const noReason = await act(c.op, page, '/admin/links/disable', { id: String(c.evilId), reason: ' ' });
    assert.equal(noReason.statusCode, 400);
    assert.equal(attribute(noReason.body, 'data-error'), 'reason-invalid');
    const missing = await act(c.op, page, '/admin/links/disable', { id: '999999', reason: 'x' });
    assert.equal(missing.statusCode, 404);
    assert.equal(attribute(missing.body, 'data-error'), '314');
    for (let i = 0; i < 2; i++)
      assertDone(await act(c.op, page, '/admin/links/enable', { id: String(c.evilId) }), 'enabled');
    assert.equal((await c.t.store.findLinkById(c.evilId))?.disabled, null);
  });

  it('suspends and resumes a user, twice each; makes and unmakes an operator; deletes only when confirmed', async () => {
    const page = '/admin/users?q=pat';
    const pat = () => c.t.store.findUserByEmail('pat@example.com');
    for (let i = 0; i < 2; i++)
      assertDone(
        await act(c.op, page, '/admin/users/suspend', { email: 'pat@example.com', q: 'pat' }),
        'suspended',
      );
    assert.notEqual((await pat())?.suspendedAt, null);
    assert.match((await c.op.open(page)).body, /data-user="pat@example.com" data-suspended="true"/);
    for (let i = 0; i < 2; i++)
      assertDone(await act(c.op, page, '/admin/users/resume', { email: 'pat@example.com' }), 'resumed');
    assert.equal((await pat())?.suspendedAt, null);
    assertDone(await act(c.op, page, '/admin/users/grant', { email: 'pat@example.com' }), 'granted');
    assert.equal((await pat())?.operator, true);
    assertDone(await act(c.op, page, '/admin/users/revoke', { email: 'pat@example.com' }), 'revoked');
    assert.equal((await pat())?.operator, false);
    const unknown = await act(c.op, page, '/admin/users/suspend', { email: 'nobody@example.com' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(attribute(unknown.body, 'data-error'), 'no-such-user');
    const unconfirmed = await act(c.op, page, '/admin/users/delete', { email: 'pat@example.com' });
    assert.equal(unconfirmed.statusCode, 400);
    assert.equal(attribute(unconfirmed.body, 'data-error'), 'confirm-required');
    assert.ok(await pat());
    assertDone(
      await act(c.op, page, '/admin/users/delete', { email: 'pat@example.com', confirm: 'on' }),
      'deleted',
    );
    assert.equal(await pat(), undefined);
  });

  it("changes a workspace's plan (audited with the plans' names), suspends, resumes and deletes one", async () => {
    const page = '/admin/workspaces?q=acme';
    assertDone(
      await act(c.op, page, '/admin/workspaces/plan', { slug: 'acme', plan: 'big', q: 'acme' }),
      'plan-changed',
    );
    assertDone(
      await act(c.op, page, '/admin/workspaces/plan', { slug: 'acme', plan: 'big' }),
      'plan-unchanged',
    );
    assert.equal((await c.t.store.findWorkspaceBySlug('acme'))?.plan.name, 'big');
    const planned = (await c.t.store.listAudit({ limit: 100 })).filter(
      (entry) => entry.action === 'workspace.plan',
    );
    assert.equal(planned.length, 1);
    assert.deepEqual([planned[0]?.before, planned[0]?.after], [{ plan: 'tester' }, { plan: 'big' }]);
    const noPlan = await act(c.op, page, '/admin/workspaces/plan', { slug: 'acme', plan: 'gold' });
    assert.equal(noPlan.statusCode, 404);
    assert.equal(attribute(noPlan.body, 'data-error'), 'no-such-plan');
    for (let i = 0; i < 2; i++)
      assertDone(
        await act(c.op, page, '/admin/workspaces/suspend', { slug: 'acme', reason: 'spam wave' }),
        'suspended',
      );
    assert.equal((await c.t.store.findWorkspaceBySlug('acme'))?.suspended?.reason, 'spam wave');
    for (let i = 0; i < 2; i++)
      assertDone(await act(c.op, page, '/admin/workspaces/resume', { slug: 'acme' }), 'resumed');
    assert.equal((await c.t.store.findWorkspaceBySlug('acme'))?.suspended, null);
    await workspaceAdmin(c.t.store).create('beta', 'ann@example.com', 'tester', 'Beta');
    const unconfirmed = await act(c.op, page, '/admin/workspaces/delete', { slug: 'beta' });
    assert.equal(unconfirmed.statusCode, 400);
    assert.equal(attribute(unconfirmed.body, 'data-error'), 'confirm-required');
    assertDone(await act(c.op, page, '/admin/workspaces/delete', { slug: 'beta', confirm: 'on' }), 'deleted');
    assert.notEqual((await c.t.store.findWorkspaceBySlug('beta'))?.suspended, null);
    const personal = (await c.t.store.findAccountByEmail('ann@example.com'))?.workspace.slug ?? '';
    const refused = await act(c.op, page, '/admin/workspaces/delete', { slug: personal, confirm: 'on' });
    assert.equal(refused.statusCode, 409);
    assert.equal(attribute(refused.body, 'data-error'), 'personal-workspace');
  });

  it('shows a report as text, resolves it once, and refuses an unknown action', async () => {
    const report = await c.t.store.addReport({
      url: `https://sn.ip/${c.good}`,
      linkId: (await c.t.store.findLinkByCode(0, c.good))?.id ?? 0,
      reason: 'phishing',
      comment: '<script>alert(1)</script> "quoted" & more',
      email: 'who@example.com',
    });
    const queue = await c.op.open('/admin/reports');
    assert.match(queue.body, new RegExp(`data-report="${report.id}" data-status="open"`));
    assert.doesNotMatch(queue.body, /<script>alert/);
    assert.match(queue.body, /&#60;script&#62;alert\(1\)&#60;\/script&#62; &#34;quoted&#34; &#38; more/);
    const bad = await act(c.op, '/admin/reports', '/admin/reports/resolve', {
      id: String(report.id),
      action: 'explode',
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(attribute(bad.body, 'data-error'), 'action-invalid');
    for (let i = 0; i < 2; i++)
      assertDone(
        await act(c.op, '/admin/reports', '/admin/reports/resolve', {
          id: String(report.id),
          action: 'dismiss',
        }),
        'resolved',
      );
    assert.equal((await c.t.store.findReport(report.id))?.resolution, 'dismiss');
    assert.doesNotMatch((await c.op.open('/admin/reports')).body, new RegExp(`data-report="${report.id}"`));
    assert.match(
      (await c.op.open('/admin/reports?status=all')).body,
      new RegExp(`data-report="${report.id}" data-status="resolved"`),
    );
  });

  it('imports a pasted list and shows its counts; adds, removes and deletes', async () => {
    const text = [
      '# a comment',
      'evil.example',
      '0.0.0.0 bad.example',
      'not a host!!',
      '||ads.example^',
      'http://x/',
    ].join('\n');
    const imported = await act(c.op, '/admin/blocklists', '/admin/blocklists/import', {
      name: 'pasted',
      text,
    });
    assertDone(imported, 'imported');
    const shown = await c.op.open(String(imported.headers.location));
    assert.equal(attribute(shown.body, 'data-import'), 'pasted');
    assert.equal(attribute(shown.body, 'data-applied'), '3');
    assert.equal(attribute(shown.body, 'data-skipped'), '2');
    assert.match(shown.body, /lines 4, 6/);
    assert.match(shown.body, /<tr data-list="pasted" data-rules="3"/);
    const badName = await act(c.op, '/admin/blocklists', '/admin/blocklists/import', {
      name: 'Bad Name!',
      text,
    });
    assert.equal(badName.statusCode, 400);
    assert.equal(attribute(badName.body, 'data-error'), 'blocklist-name-invalid');
    assertDone(
      await act(c.op, '/admin/blocklists', '/admin/blocklists/add', { host: 'worse.example', exact: 'on' }),
      'added',
    );
    assertDone(
      await act(c.op, '/admin/blocklists', '/admin/blocklists/add', { host: 'worse.example', exact: 'on' }),
      'already-blocked',
    );
    const badHost = await act(c.op, '/admin/blocklists', '/admin/blocklists/add', { host: 'not a host' });
    assert.equal(attribute(badHost.body, 'data-error'), 'host-invalid');
    assertDone(
      await act(c.op, '/admin/blocklists', '/admin/blocklists/remove', { host: 'worse.example' }),
      'removed',
    );
    assertDone(
      await act(c.op, '/admin/blocklists', '/admin/blocklists/remove', { host: 'worse.example' }),
      'not-listed',
    );
    assertDone(
      await act(c.op, '/admin/blocklists', '/admin/blocklists/delete', { name: 'pasted' }),
      'deleted',
    );
    assert.doesNotMatch((await c.op.open('/admin/blocklists')).body, /data-list="pasted"/);
  });

  it('lists the actions done in the audit log, a hundred a page with an older link', async () => {
    const log = await c.op.open('/admin/audit');
    for (const action of [
      'link.disable',
      'link.enable',
      'user.suspend',
      'operator.grant',
      'user.delete',
      'workspace.plan',
      'workspace.suspend',
      'report.resolve',
      'blocklist.import',
      'blocklist.add',
      'blocklist.delete',
    ])
      assert.match(log.body, new RegExp(`data-audit-action="${action.replace('.', '\\.')}"`), action);
    for (let i = 0; i < 120; i++)
      await c.t.store.addAudit({
        actorId: null,
        actor: 'cli',
        workspaceId: null,
        action: 'test.fill',
        target: `t${i}`,
      });
    const first = await c.op.open('/admin/audit');
    assert.equal([...first.body.matchAll(/<tr data-entry=/g)].length, 100);
    const older = attribute(first.body, 'data-older');
    assert.ok(older);
    const next = await c.op.open(`/admin/audit?before=${older}`);
    assert.equal(next.statusCode, 200);
    assert.ok(Number(attribute(next.body, 'data-entry')) < Number(older));
  });

  it("shows a workspace's owners and admins its audit log, and refuses a member (403)", async () => {
    for (const email of ['ann@example.com', 'adm@example.com']) {
      const client = await signedIn(c.t, email);
      const answer = await client.open('/w/acme/audit');
      assert.equal(answer.statusCode, 200, email);
      assert.match(answer.body, /data-audit-action="workspace\.plan"/);
      assert.doesNotMatch(answer.body, /data-audit-action="blocklist\./, "only the workspace's entries");
      assert.match((await client.open('/w/acme/settings')).body, /href="\/w\/acme\/audit"/);
    }
    const member = await signedIn(c.t, 'mem@example.com');
    const refused = await member.get('/w/acme/audit');
    assert.equal(refused.statusCode, 403);
    assert.equal(attribute(refused.body, 'data-error'), 'forbidden');
  });
});
