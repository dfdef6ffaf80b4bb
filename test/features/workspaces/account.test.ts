import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { createJson, startTestApp, type TestApp } from '../../helper.ts';

/** Account Settings: the key shown once, rotation, plans without API access, the password change. */

const PASSWORD = 'correct horse battery';

function shownKey(body: string): string | undefined {
  return /<code id="api-key">(snip_[A-Za-z0-9_-]+)<\/code>/.exec(body)?.[1];
}

async function signedIn(t: TestApp, email: string, plan = 'tester'): Promise<PageClient> {
  await t.ops.createAccount(email, plan, PASSWORD);
  const client = new PageClient(t.app);
  assert.equal((await client.signIn(email, PASSWORD)).statusCode, 303);
  return client;
}

describe('the API key on Account Settings', () => {
  it('shows a new account its key once, right after sign-up, and its prefix afterwards', async () => {
    const t = await startTestApp({ env: { SIGNUP_PLAN: 'tester' } });
    try {
      const client = new PageClient(t.app);
      const signup = await client.signUp('ada@example.com', PASSWORD);
      assert.equal(signup.headers.location, client.at('/keys'), 'the new key is shown first');
      const first = await client.open(client.at('/keys'));
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers['cache-control'], 'no-store');
      const key = shownKey(first.body);
      assert.ok(key, 'the full key is on the page');
      assert.equal(
        (await createJson(t.app, key, { url: 'https://example.com/k' })).status,
        201,
        'and it works',
      );

      const again = await client.open(client.at('/keys'));
      assert.equal(shownKey(again.body), undefined, 'never shown again');
      assert.ok(!again.body.includes(key));
      assert.equal(attribute(again.body, 'data-state'), 'key-prefix');
      assert.ok(again.body.includes(key.slice(0, 11)), 'its prefix is');
    } finally {
      await t.close();
    }
  });

  it('rotates the key behind a confirmation; the old key gets 303 on /create at once', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      const { apiKey: old } = await t.ops.rotateKey('ada@example.com');
      assert.equal((await createJson(t.app, old, { url: 'https://example.com/before' })).status, 201);
      await client.open(client.at('/keys'));

      const unconfirmed = await client.post(client.at('/keys/main'));
      assert.equal(unconfirmed.statusCode, 400);
      assert.equal(attribute(unconfirmed.body, 'data-error'), 'confirm-required');
      assert.equal((await createJson(t.app, old, { url: 'https://example.com/still' })).status, 201);

      const rotated = await client.post(client.at('/keys/main'), { understand: 'yes' });
      assert.equal(rotated.statusCode, 303);
      const refused = await createJson(t.app, old, { url: 'https://example.com/after' });
      assert.equal(refused.status, 401);
      assert.equal(refused.body.error, '303');

      const fresh = shownKey((await client.open(client.at('/keys'))).body);
      assert.ok(fresh && fresh !== old);
      assert.equal((await createJson(t.app, fresh, { url: 'https://example.com/after' })).status, 201);
      assert.equal(shownKey((await client.open(client.at('/keys'))).body), undefined);
    } finally {
      await t.close();
    }
  });

  it('does not show a key rotated away since, nor in another session', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      await client.post(client.at('/keys/main'), { understand: 'yes' });
      const sealed = client.cookies.get('snip_fresh_key');
      assert.ok(sealed);
      // Another session of the same account presenting the sealed cookie cannot open it.
      const other = new PageClient(t.app);
      assert.equal((await other.signIn('ada@example.com', PASSWORD)).statusCode, 303);
      other.cookies.set('snip_fresh_key', sealed);
      assert.equal(shownKey((await other.open(other.at('/keys'))).body), undefined);
      // A key rotated away (here by the operator) before the page was opened is not shown.
      await t.ops.rotateKey('ada@example.com');
      assert.equal(shownKey((await client.open(client.at('/keys'))).body), undefined);
    } finally {
      await t.close();
    }
  });

  it('shows no key and says so when the plan has no API access', async () => {
    const t = await startTestApp();
    try {
      const client = new PageClient(t.app);
      const signup = await client.signUp('ada@example.com', PASSWORD);
      assert.equal(signup.headers.location, client.at(), 'the free plan has no key to show');
      const page = await client.open(client.at('/keys'));
      assert.equal(page.statusCode, 200);
      assert.equal(attribute(page.body, 'data-state'), 'no-api-access');
      assert.equal(shownKey(page.body), undefined);
      assert.doesNotMatch(page.body, /snip_[A-Za-z0-9_-]{6}/, 'not even a prefix');
      assert.doesNotMatch(page.body, /action="\/account\/key"/);
      const refused = await client.post(client.at('/keys/main'), { understand: 'yes' });
      assert.equal(refused.statusCode, 403);
      assert.equal(attribute(refused.body, 'data-error'), 'no-api-access');
    } finally {
      await t.close();
    }
  });
});

describe('changing the password', () => {
  it('needs the current password, then ends every other session', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t, 'ada@example.com');
      const laptop = new PageClient(t.app);
      await laptop.signIn('ada@example.com', PASSWORD);
      await client.open('/account');

      const wrong = await client.post('/account/password', {
        current: 'not it at all',
        password: 'new password 1',
      });
      assert.equal(wrong.statusCode, 403);
      assert.equal(attribute(wrong.body, 'data-error'), 'wrong-password');
      const short = await client.post('/account/password', { current: PASSWORD, password: 'short' });
      assert.equal(short.statusCode, 400);

      const changed = await client.post('/account/password', {
        current: PASSWORD,
        password: 'new password 1',
      });
      assert.equal(changed.statusCode, 303);
      assert.equal((await client.get('/account')).statusCode, 200, 'this session stays');
      assert.equal((await laptop.get('/account')).statusCode, 303, 'the other one ended');
      assert.equal((await new PageClient(t.app).signIn('ada@example.com', PASSWORD)).statusCode, 401);
      assert.equal((await new PageClient(t.app).signIn('ada@example.com', 'new password 1')).statusCode, 303);
    } finally {
      await t.close();
    }
  });
});
