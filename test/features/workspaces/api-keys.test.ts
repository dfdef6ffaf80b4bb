import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/** Further API keys on Account Settings: named and scoped, shown once, listed, revoked; at most 10. */

const PASSWORD = 'correct horse battery';

function shownKey(body: string): string | undefined {
  return /<code id="api-key">(snip_[A-Za-z0-9_-]+)<\/code>/.exec(body)?.[1];
}

/** The ids of the keys listed in API Access, in order. */
function listedKeyIds(body: string): number[] {
  return [...body.matchAll(/<tr data-key-id="(\d+)"/g)].map((match) => Number(match[1]));
}

async function signedIn(t: TestApp, email: string, plan = 'tester'): Promise<PageClient> {
  await t.ops.createAccount(email, plan, PASSWORD);
  const client = new PageClient(t.app);
  assert.equal((await client.signIn(email, PASSWORD)).statusCode, 303);
  await client.open(client.at('/keys'));
  return client;
}

/** Adds a key through the form; answers the key shown once on the page after the redirect. */
async function addKey(client: PageClient, name: string, scopes: string[]): Promise<string> {
  const body = new URLSearchParams({ _csrf: client.csrf, name });
  for (const scope of scopes) body.append('scopes', scope);
  const answer = await client.app.inject({
    method: 'POST',
    url: client.at('/keys'),
    headers: { cookie: client.cookieHeader, 'content-type': 'application/x-www-form-urlencoded' },
    payload: body.toString(),
    remoteAddress: client.address,
  });
  assert.equal(answer.statusCode, 303, answer.body);
  assert.equal(answer.headers.location, client.at('/keys?done=key-created'));
  const cookie = answer.cookies.find((c) => c.name === 'snip_fresh_key');
  assert.ok(cookie, 'the new key travels sealed to the next page');
  client.cookies.set(cookie.name, cookie.value);
  const page = await client.open(client.at('/keys?done=key-created'));
  assert.equal(attribute(page.body, 'data-done'), 'key-created');
  const key = shownKey(page.body);
  assert.ok(key, 'the new key is shown');
  return key;
}

async function keyIdOf(t: TestApp, email: string, key: string): Promise<number> {
  const account = await t.store.findAccountByEmail(email);
  assert.ok(account);
  const info = (await t.store.listLiveKeys(account.workspace.id)).find((k) => k.prefix === key.slice(0, 11));
  assert.ok(info, 'the key is live');
  return info.id;
}

describe('further API keys on Account Settings', () => {
  it('creates a named key with its scopes, shows it once, and it works on /api/v1 within them', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      const key = await addKey(client, 'Reporting <script>', ['links:read']);
      const page = await client.open(client.at('/keys'));
      assert.equal(shownKey(page.body), undefined, 'never shown again');
      assert.ok(!page.body.includes(key));
      assert.ok(!page.body.includes('Reporting <script>'), 'the name is escaped');
      const id = await keyIdOf(t, 'ada@example.com', key);
      const row = new RegExp(`<tr data-key-id="${id}">[\\s\\S]*?</tr>`).exec(page.body)?.[0] ?? '';
      assert.match(row, /Reporting &#60;script&#62;/);
      assert.match(row, new RegExp(`<code>${key.slice(0, 11)}…</code>`));
      assert.match(row, /<code>links:read<\/code>/);
      assert.doesNotMatch(row, /links:create/);
      assert.match(row, /data-label="Last used"[^>]*><span class="hint">never<\/span>/);
      assert.match(page.body, /<tr data-key-id="\d+" data-main="true">[\s\S]*?every scope/);

      assert.equal((await callApi(t.app, 'GET', '/links', { key })).status, 200);
      assert.equal((await callApi(t.app, 'GET', '/links', { key, bearer: true })).status, 200);
      assertProblem(
        await callApi(t.app, 'POST', '/links', { key, body: { url: 'https://example.com/x' } }),
        403,
        '315',
      );
      await t.app.keyUses.flush();
      const used = await client.open(client.at('/keys'));
      const usedRow = new RegExp(`<tr data-key-id="${id}">[\\s\\S]*?</tr>`).exec(used.body)?.[0] ?? '';
      assert.match(usedRow, /data-label="Last used"[^>]*><time datetime="\d{4}-/, 'its last use is listed');
    } finally {
      await t.close();
    }
  });

  it('says which key was just created, and still shows a rotated main key as the main one', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await addKey(client, 'Deploy bot', ['links:create']);
      await client.open(client.at('/keys'));
      assert.equal((await client.post(client.at('/keys/main'), { understand: 'yes' })).statusCode, 303);
      const rotated = await client.open(client.at('/keys'));
      assert.ok(shownKey(rotated.body));
      assert.match(rotated.body, /Your new main key\./);
      const again = await client.open(client.at('/keys'));
      assert.equal(attribute(again.body, 'data-state'), 'key-prefix');

      await client.post(client.at('/keys'), { name: 'Deploy bot 2', scopes: 'links:create' });
      const named = await client.open(client.at('/keys'));
      assert.match(named.body, /Your new key “Deploy bot 2”\./);
    } finally {
      await t.close();
    }
  });

  it('revokes a further key: the API refuses it at once with 303, and it leaves the list', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      const key = await addKey(client, 'Old script', ['links:read', 'links:write']);
      const id = await keyIdOf(t, 'ada@example.com', key);
      assert.equal((await callApi(t.app, 'GET', '/links', { key })).status, 200);
      const revoked = await client.post(client.at(`/keys/${id}/revoke`));
      assert.equal(revoked.statusCode, 303);
      assert.equal(revoked.headers.location, client.at('/keys?done=key-revoked'));
      assertProblem(await callApi(t.app, 'GET', '/links', { key }), 401, '303');
      const page = await client.open(client.at('/keys?done=key-revoked'));
      assert.equal(attribute(page.body, 'data-done'), 'key-revoked');
      assert.ok(!listedKeyIds(page.body).includes(id));
      const twice = await client.post(client.at(`/keys/${id}/revoke`));
      assert.equal(twice.statusCode, 404);
      assert.equal(attribute(twice.body, 'data-error'), 'not-found');
    } finally {
      await t.close();
    }
  });

  it('does not show a key revoked before the page was opened', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.post(client.at('/keys'), { name: 'Short-lived', scopes: 'links:read' });
      const account = await t.store.findAccountByEmail('ada@example.com');
      assert.ok(account);
      const further = (await t.store.listLiveKeys(account.workspace.id)).find((k) => !k.main);
      assert.ok(further);
      assert.equal(await t.store.revokeKey(account.workspace.id, further.id), true);
      const page = await client.open(client.at('/keys'));
      assert.equal(shownKey(page.body), undefined);
    } finally {
      await t.close();
    }
  });

  it('refuses an 11th key with 409, and says the account is full', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      for (let i = 1; i <= 9; i++) {
        const answer = await client.post(client.at('/keys'), { name: `Key ${i}`, scopes: 'links:read' });
        assert.equal(answer.statusCode, 303, `key ${i + 1} of 10`);
      }
      const full = await client.open(client.at('/keys'));
      assert.equal(listedKeyIds(full.body).length, 10);
      assert.match(full.body, /data-state="keys-full"/);
      assert.doesNotMatch(full.body, /action="\/account\/keys"/);
      const eleventh = await client.post(client.at('/keys'), { name: 'One more', scopes: 'links:read' });
      assert.equal(eleventh.statusCode, 409);
      assert.equal(attribute(eleventh.body, 'data-error'), 'too-many-keys');
      const account = await t.store.findAccountByEmail('ada@example.com');
      assert.equal((await t.store.listLiveKeys(account?.workspace.id ?? 0)).length, 10);
    } finally {
      await t.close();
    }
  });

  it('refuses a key without a name or a scope, keeping what was typed', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      const noName = await client.post(client.at('/keys'), { name: '  ', scopes: 'links:read' });
      assert.equal(noName.statusCode, 400);
      assert.equal(attribute(noName.body, 'data-error'), 'key-name-invalid');
      assert.match(noName.body, /value="links:read" checked/);
      const tooLong = await client.post(client.at('/keys'), { name: 'x'.repeat(61), scopes: 'links:read' });
      assert.equal(tooLong.statusCode, 400);
      const noScope = await client.post(client.at('/keys'), { name: 'Nightly export', scopes: 'everything' });
      assert.equal(noScope.statusCode, 400);
      assert.equal(attribute(noScope.body, 'data-error'), 'scopes-required');
      assert.match(
        noScope.body,
        /name="name" required maxlength="60" autocomplete="off" value="Nightly export"/,
      );
      const account = await t.store.findAccountByEmail('ada@example.com');
      assert.equal((await t.store.listLiveKeys(account?.workspace.id ?? 0)).length, 1, 'only the main key');
    } finally {
      await t.close();
    }
  });

  it("answers 404 for the main key's id, another account's key or no id, revoking nothing", async () => {
    const t = await startTestApp();
    try {
      const ada = await signedIn(t, 'ada@example.com');
      const bob = await signedIn(t, 'bob@example.com');
      const adaKey = await addKey(ada, 'Ada script', ['links:read']);
      const adaKeyId = await keyIdOf(t, 'ada@example.com', adaKey);
      const bobAccount = await t.store.findAccountByEmail('bob@example.com');
      const bobMain = await t.store.findMainKey(bobAccount?.workspace.id ?? 0);
      assert.ok(bobMain);

      const cases: Array<[PageClient, string]> = [
        [bob, String(bobMain.id)],
        [bob, String(adaKeyId)],
        [bob, 'abc'],
        [bob, '0'],
      ];
      for (const [client, id] of cases) {
        const answer = await client.post(client.at(`/keys/${id}/revoke`));
        assert.equal(answer.statusCode, 404, id);
        assert.equal(attribute(answer.body, 'data-error'), 'not-found');
      }
      assert.equal((await callApi(t.app, 'GET', '/links', { key: adaKey })).status, 200);
      assert.deepEqual(await t.store.findMainKey(bobAccount?.workspace.id ?? 0), bobMain);
    } finally {
      await t.close();
    }
  });

  it('gives a plan without API access no keys to add', async () => {
    const t = await startTestApp();
    try {
      await t.ops.savePlan('basic', { apiAccess: false, urlQuota: 10, rateLimitPerHour: 10 });
      const client = await signedIn(t, 'ada@example.com', 'basic');
      const page = await client.open(client.at('/keys'));
      assert.doesNotMatch(page.body, /action="\/account\/keys"/);
      const refused = await client.post(client.at('/keys'), { name: 'Sneaky', scopes: 'links:read' });
      assert.equal(refused.statusCode, 403);
      assert.equal(attribute(refused.body, 'data-error'), 'no-api-access');
    } finally {
      await t.close();
    }
  });
});
