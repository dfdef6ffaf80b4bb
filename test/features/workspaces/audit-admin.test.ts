import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashApiKey, issueApiKey } from '../../../src/core/api-key.ts';
import type { Workspace } from '../../../src/core/entities.ts';
import type { Scope } from '../../../src/core/scopes.ts';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { runSnip } from '../../fixtures/cli-harness.ts';
import { PageClient } from '../../fixtures/page-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * The audit log of a workspace's admin actions (docs/api.md §13): members, roles, invitations,
 * keys, the workspace's name and default domain, and its domains, done through the API, the pages
 * and the operator's commands, each recorded once with who, what and before/after, and never a
 * secret; read back with GET /api/v1/audit by a key holding `audit:read`.
 */

const PASSWORD = 'correct horse battery';
const HOST = 'go.acme.test';
const at = (who: string) => `${who}@example.com`;

interface Entry {
  actor: string;
  action: string;
  target: string;
  workspace: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

describe('the audit log of workspace admin actions', () => {
  let t: TestApp;
  let acme: Workspace;
  let entries: Entry[] = [];
  /** Every key and link token seen: none may appear in the log. */
  const secrets: string[] = [];
  const keys = { owner: '', operator: '', viewer: '', adminAuditor: '' };
  let operatorPrefix = '';

  const snip = async (...argv: string[]) => {
    const env = { DATABASE_URL: t.config.databaseUrl, BASE_URL: 'https://sn.ip' };
    const done = await runSnip(env, {}, [...argv, '--json']);
    assert.equal(done.code, 0, `snip ${argv.join(' ')}: ${done.err}`);
    return done.json;
  };

  /** A key of acme made by that member (or by the operator: null), with these scopes. */
  const acmeKey = async (email: string | null, scopes: readonly Scope[], name: string) => {
    const user = email === null ? undefined : await t.store.findUserByEmail(email);
    const issued = issueApiKey();
    const result = await t.store.addKey(acme.id, {
      createdBy: user?.id ?? null,
      name,
      scopes,
      prefix: issued.prefix,
      hash: issued.hash,
    });
    assert.equal(result.kind, 'created');
    secrets.push(issued.key);
    return { key: issued.key, prefix: issued.prefix };
  };

  const signedIn = async (email: string) => {
    const client = new PageClient(t.app);
    assert.equal((await client.signIn(email, PASSWORD)).statusCode, 303);
    return client;
  };

  const api = async (method: string, path: string, status: number, body?: unknown, key = keys.owner) => {
    const answer = await callApi(t.app, method, path, { key, body });
    assert.equal(answer.status, status, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    return answer;
  };

  const withAction = (action: string) => entries.filter((entry) => entry.action === action);
  const only = (action: string, target: string) => {
    const found = withAction(action).filter((entry) => entry.target === target);
    assert.equal(found.length, 1, `${action} ${target}: ${JSON.stringify(withAction(action))}`);
    return found[0] as Entry;
  };

  before(async () => {
    t = await startTestApp({
      // The domain's record is found: the TXT record holds its token.
      resolveTxt: async (name) => {
        const domain = (await t.store.listDomains()).find((d) => name === `_snip-challenge.${d.host}`);
        return domain ? [[domain.verificationToken]] : [];
      },
    });
    for (const who of ['olive', 'adam', 'pat', 'vic', 'lea', 'jay', 'kim']) {
      await t.ops.createAccount(at(who), 'tester', PASSWORD);
    }
    await snip('workspace', 'create', 'acme', '--owner', at('olive'), '--name', 'Acme');
    const found = await t.store.findWorkspaceBySlug('acme');
    assert.ok(found);
    acme = found;
    for (const [who, role] of [
      ['adam', 'admin'],
      ['pat', 'member'],
      ['vic', 'viewer'],
      ['lea', 'member'],
    ] as const) {
      await snip('member', 'add', 'acme', at(who), '--role', role);
    }
    const all: Scope[] = ['members:read', 'members:write', 'domains:write', 'links:read', 'audit:read'];
    keys.owner = (await acmeKey(at('olive'), all, 'owner key')).key;
    const operator = await acmeKey(null, ['members:write'], 'operator key');
    [keys.operator, operatorPrefix] = [operator.key, operator.prefix];
    keys.viewer = (await acmeKey(at('vic'), ['links:read'], 'viewer key')).key;
    keys.adminAuditor = (await acmeKey(at('adam'), ['audit:read'], 'admin audit key')).key;

    // Members and invitations, through the API.
    await api('PATCH', `/members/${at('pat')}`, 200, { role: 'admin' });
    await api('PATCH', `/members/${at('pat')}`, 200, { role: 'admin' }); // the same role: nothing
    await api('PATCH', `/members/${at('pat')}`, 200, { role: 'member' }, keys.operator);
    await api('DELETE', `/members/${at('pat')}`, 204);
    const jay = await api('POST', '/invitations', 201, { email: at('jay'), role: 'member' });
    const kim = await api('POST', '/invitations', 201, { email: at('kim'), role: 'viewer' });
    secrets.push(String(jay.body.url), String(kim.body.url));
    await api('DELETE', `/invitations/${kim.body.id}`, 204);
    const invited = await signedIn(at('jay'));
    const path = new URL(String(jay.body.url)).pathname;
    await invited.open(path);
    assert.equal((await invited.post(`${path}/accept`)).statusCode, 303);

    // Keys, the name and the default domain, through the pages, as an admin.
    const adam = await signedIn(at('adam'));
    await adam.open('/w/acme/keys');
    const made = await adam.post('/w/acme/keys', { name: 'Nightly report', scopes: 'links:read' });
    assert.equal(made.statusCode, 303);
    const nightly = (await t.store.listLiveKeys(acme.id)).find((k) => k.name === 'Nightly report');
    assert.ok(nightly);
    assert.equal((await adam.post(`/w/acme/keys/${nightly.id}/revoke`)).statusCode, 303);
    assert.equal((await adam.post('/w/acme/keys/main', { understand: 'yes' })).statusCode, 303);
    await adam.open('/w/acme/settings');
    assert.equal((await adam.post('/w/acme/settings', { name: 'Acme Inc' })).statusCode, 303);
    assert.equal((await adam.post('/w/acme/settings', { name: 'Acme Inc' })).statusCode, 303); // unchanged

    // A domain: added, verified and changed through the API; the default through the pages.
    await api('POST', '/domains', 201, { host: HOST });
    await api('POST', `/domains/${HOST}/verify`, 200);
    await api('POST', `/domains/${HOST}/verify`, 200); // verified already: nothing
    await api('PATCH', `/domains/${HOST}`, 200, { https: false, root_redirect: 'https://acme.test/' });
    await api('PATCH', `/domains/${HOST}`, 200, { https: false }); // the same: nothing
    await adam.open('/w/acme/domains');
    assert.equal((await adam.post('/w/acme/domains/default', { host: HOST })).statusCode, 303);
    assert.equal((await adam.post('/w/acme/domains/default', { host: '' })).statusCode, 303);
    await api('DELETE', `/domains/${HOST}`, 204);

    // A member leaving; the operator's command line.
    const lea = await signedIn(at('lea'));
    await lea.open('/w/acme');
    assert.equal((await lea.post('/w/acme/leave')).statusCode, 303);
    await snip('member', 'remove', 'acme', at('jay'));
    await snip('domain', 'add', 'cli.acme.test', '--workspace', 'acme');
    await snip('domain', 'verify', 'cli.acme.test');

    const log = await api('GET', '/audit?limit=100', 200, undefined, keys.owner);
    entries = log.body.items as Entry[];
  });
  after(() => t.close());

  it('records members, roles and invitations with who did it and the role before and after', () => {
    assert.deepEqual(
      withAction('member.add').map((e) => [e.actor, e.target, e.before, e.after]),
      [
        ['cli', at('lea'), null, { role: 'member' }],
        ['cli', at('vic'), null, { role: 'viewer' }],
        ['cli', at('pat'), null, { role: 'member' }],
        ['cli', at('adam'), null, { role: 'admin' }],
      ],
      'newest first',
    );
    assert.deepEqual(
      withAction('member.role').map((e) => [e.actor, e.target, e.before, e.after]),
      [
        [`key ${operatorPrefix}`, at('pat'), { role: 'admin' }, { role: 'member' }],
        [at('olive'), at('pat'), { role: 'member' }, { role: 'admin' }],
      ],
      'the same role again recorded nothing; a key the operator made is named by its prefix',
    );
    const removed = only('member.remove', at('pat'));
    assert.deepEqual([removed.actor, removed.before, removed.after], [at('olive'), { role: 'member' }, null]);
    const invited = only('invitation.create', at('jay'));
    assert.equal(invited.actor, at('olive'));
    assert.equal(invited.after?.role, 'member');
    assert.equal(only('invitation.create', at('kim')).after?.role, 'viewer');
    const revoked = only('invitation.revoke', at('kim'));
    assert.deepEqual([revoked.actor, revoked.before, revoked.after], [at('olive'), { role: 'viewer' }, null]);
    const joined = only('member.join', at('jay'));
    assert.deepEqual([joined.actor, joined.after], [at('jay'), { role: 'member' }], 'the invitee acts');
    const removed2 = only('member.remove', at('jay'));
    assert.deepEqual([removed2.actor, removed2.before], ['cli', { role: 'member' }]);
    const left = only('member.leave', at('lea'));
    assert.deepEqual([left.actor, left.before, left.after], [at('lea'), { role: 'member' }, null]);
    assert.ok(entries.every((e) => e.workspace === 'acme'));
  });

  it('records keys by name, prefix and scopes, and the workspace and its creation', () => {
    const created = only('key.create', 'Nightly report');
    assert.equal(created.actor, at('adam'));
    assert.deepEqual(created.before, null);
    assert.deepEqual(Object.keys(created.after ?? {}).sort(), ['name', 'prefix', 'scopes']);
    assert.deepEqual(created.after?.scopes, ['links:read']);
    const revoked = only('key.revoke', 'Nightly report');
    assert.deepEqual([revoked.actor, revoked.before, revoked.after], [at('adam'), created.after, null]);
    const rotated = withAction('key.rotate');
    assert.equal(rotated.length, 1);
    assert.equal(rotated[0]?.actor, at('adam'));
    assert.match(String(rotated[0]?.after?.prefix), /^snip_[A-Za-z0-9_-]{6}$/, 'its prefix only');
    const renamed = only('workspace.rename', 'acme');
    assert.deepEqual(
      [renamed.actor, renamed.before, renamed.after],
      [at('adam'), { name: 'Acme' }, { name: 'Acme Inc' }],
      'renaming to the same name again recorded nothing',
    );
    const made = only('workspace.create', 'acme');
    assert.deepEqual([made.actor, made.after], ['cli', { name: 'Acme', plan: 'tester', owner: at('olive') }]);
  });

  it('records the domain added, verified, changed, made the default and removed', () => {
    const added = only('domain.add', HOST);
    assert.equal(added.actor, at('olive'));
    assert.equal(added.after?.verified, false);
    const verified = only('domain.verify', HOST);
    assert.deepEqual([verified.before, verified.after], [{ verified: false }, { verified: true }]);
    const changed = only('domain.update', HOST);
    assert.deepEqual(
      [changed.before, changed.after],
      [
        { https: true, root_redirect: null },
        { https: false, root_redirect: 'https://acme.test/' },
      ],
      'only what changed; the same settings again recorded nothing',
    );
    assert.deepEqual(
      withAction('domain.default').map((e) => [e.actor, e.target, e.before, e.after]),
      [
        [at('adam'), 'sn.ip', { default_domain: HOST }, { default_domain: 'sn.ip' }],
        [at('adam'), HOST, { default_domain: 'sn.ip' }, { default_domain: HOST }],
      ],
    );
    const byCli = entries.filter((e) => e.target === 'cli.acme.test').map((e) => [e.actor, e.action]);
    assert.deepEqual(byCli, [
      ['cli', 'domain.verify'],
      ['cli', 'domain.add'],
    ]);
    const removed = only('domain.remove', HOST);
    assert.deepEqual([removed.actor, removed.after], [at('olive'), null]);
    assert.equal(removed.before?.verified, true);
  });

  it('never holds a key, a key hash or a link token', () => {
    const text = JSON.stringify(entries);
    for (const secret of [...secrets, t.apiKey]) {
      assert.ok(!text.includes(secret), 'a secret in the audit log');
      const token = secret.split('/').at(-1) ?? secret;
      assert.ok(!text.includes(token), 'a link token in the audit log');
    }
    assert.doesNotMatch(text, /snip_[A-Za-z0-9_-]{16,}/);
    for (const key of secrets.filter((secret) => secret.startsWith('snip_'))) {
      const hash = hashApiKey(key);
      for (const form of [hash.toString('hex'), hash.toString('base64'), hash.toString('base64url')]) {
        assert.ok(!text.includes(form), 'a key hash in the audit log');
      }
    }
  });

  it("records the operator's plan change and main key rotation of a personal workspace", async () => {
    await t.ops.savePlan('bigger', { apiAccess: true });
    await snip('account', 'plan', at('kim'), 'bigger');
    await snip('account', 'plan', at('kim'), 'bigger'); // the same plan: nothing
    const rotated = String((await snip('key', 'rotate', at('kim'))).api_key);
    const account = await t.store.findAccountByEmail(at('kim'));
    assert.ok(account);
    const log = await t.store.listAudit({ workspaceId: account.workspace.id, limit: 10 });
    assert.deepEqual(
      log.map((e) => [e.actor, e.action, e.target, e.before, e.after]),
      [
        ['cli', 'key.rotate', 'API Access', log[0]?.before, { prefix: rotated.slice(0, 11) }],
        ['cli', 'workspace.plan', account.workspace.slug, { plan: 'tester' }, { plan: 'bigger' }],
      ],
    );
    assert.match(String(log[0]?.before?.prefix), /^snip_[A-Za-z0-9_-]{6}$/);
    assert.ok(!JSON.stringify(log).includes(rotated));
  });

  it('lets an admin key with audit:read read it, and refuses a key without it (315)', async () => {
    const read = await api('GET', '/audit', 200, undefined, keys.adminAuditor);
    assert.ok((read.body.items as Entry[]).length > 0);
    assertProblem(await callApi(t.app, 'GET', '/audit', { key: keys.viewer }), 403, '315');
  });
});
