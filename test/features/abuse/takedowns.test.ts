import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callApi } from '../../fixtures/api-client.ts';
import { PageClient } from '../../fixtures/page-client.ts';
import { createJson } from '../../helper.ts';
import { abuseHarness } from './abuse-harness.ts';

/**
 * Takedowns (docs/api.md §13) by the operator's commands, seen by a running server: a disabled link
 * answers 410 (naming no target, counting nothing) until enabled; a suspended workspace's links
 * answer 410 and its keys 303; a suspended user cannot sign in. Each action done twice is idempotent,
 * and each lands in the audit log the workspace's key can read.
 */

const { cli, state, ok, refused, create, eventually, until } = abuseHarness();

async function newLink(path: string): Promise<string> {
  const made = await create(state.target.url(path));
  assert.equal(made.status, 201, JSON.stringify(made.body));
  return String(made.body.short_code);
}

describe('takedowns', () => {
  it('disables a link with a reason until an operator enables it; twice is once', async () => {
    const code = await newLink('/title');
    await eventually(code, 302);
    const disabled = await ok('link', 'disable', code, '--reason', 'phishing kit');
    assert.equal(disabled.disabled, true);
    assert.equal(disabled.disabled_reason, 'phishing kit');
    const again = await ok('link', 'disable', code, '--reason', 'another reason');
    assert.equal(again.disabled_reason, 'phishing kit');
    const gone = await eventually(code, 410);
    assert.match(String(gone.body.raw), /href="\/report"/);
    assert.doesNotMatch(String(gone.body.raw), /127\.0\.0\.1/);
    const seen = await callApi(state.app, 'GET', `/links/${code}`, { key: state.key });
    assert.equal((seen.body.disabled as { reason: string }).reason, 'phishing kit');
    await ok('link', 'enable', code);
    await eventually(code, 302);
    const stats = await callApi(state.app, 'GET', `/links/${code}`, { key: state.key });
    assert.equal(stats.body.disabled, null);
  });

  it('refuses a disable without a reason, and of a code there is not', async () => {
    const usage = await cli.snip('link', 'disable', 'abcdefg', '--json');
    assert.equal(usage.code, 64);
    await refused('314', 'link', 'disable', 'zzzzzzz', '--reason', 'spam');
  });

  it('suspends a workspace: its links answer 410, its keys 303; resuming undoes both', async () => {
    const code = await newLink('/og-title');
    await eventually(code, 302);
    const suspended = await ok('workspace', 'suspend', state.slug, '--reason', 'spam run');
    assert.equal(suspended.suspended, true);
    await ok('workspace', 'suspend', state.slug);
    await eventually(code, 410);
    const created = await createJson(state.app, state.key, { url: state.target.url('/title') });
    assert.equal(created.status, 401);
    assert.equal(created.body.error, '303');
    assert.equal((await callApi(state.app, 'GET', '/links', { key: state.key })).body.code, '303');
    await ok('workspace', 'resume', state.slug);
    await eventually(code, 302);
    assert.equal((await callApi(state.app, 'GET', '/links', { key: state.key })).status, 200);
  });

  it('suspends a user: signed out, refused at sign-in, until resumed', async () => {
    const client = new PageClient(state.app);
    assert.equal((await client.signIn('owner@example.com')).statusCode, 303);
    assert.equal((await client.get('/account')).statusCode, 200);
    await ok('user', 'suspend', 'owner@example.com');
    assert.equal((await client.get('/account')).statusCode, 303, 'the session ended');
    const refusedSignIn = await new PageClient(state.app).signIn('owner@example.com');
    assert.equal(refusedSignIn.statusCode, 403);
    assert.match(refusedSignIn.body, /data-error="account-suspended"/);
    await ok('user', 'resume', 'owner@example.com');
    assert.equal((await new PageClient(state.app).signIn('owner@example.com')).statusCode, 303);
    await refused('no-such-user', 'user', 'suspend', 'nobody@example.com');
  });

  it('grants and revokes the operator flag', async () => {
    assert.equal((await ok('operator', 'grant', 'owner@example.com')).operator, true);
    assert.equal((await ok('operator', 'revoke', 'owner@example.com')).operator, false);
  });

  it('keeps every action in the audit log, which the workspace’s key reads', async () => {
    await until(async () => (await callApi(state.app, 'GET', '/audit', { key: state.key })).status === 200);
    const page = await callApi(state.app, 'GET', '/audit?limit=100', { key: state.key });
    const actions = (page.body.items as Array<{ action: string; actor: string }>).map(
      (entry) => entry.action,
    );
    for (const action of ['link.disable', 'link.enable', 'workspace.suspend', 'workspace.resume']) {
      assert.ok(actions.includes(action), `${action} in ${actions.join(', ')}`);
    }
    // Suspending twice was recorded once.
    assert.equal(actions.filter((action) => action === 'workspace.suspend').length, 1);
    const first = await callApi(state.app, 'GET', '/audit?limit=1', { key: state.key });
    const next = await callApi(state.app, 'GET', `/audit?limit=1&cursor=${first.body.next_cursor}`, {
      key: state.key,
    });
    assert.notDeepEqual(next.body.items, first.body.items);
    assert.equal(
      (await callApi(state.app, 'GET', '/audit?cursor=forged', { key: state.key })).body.code,
      '300',
    );
  });
});
