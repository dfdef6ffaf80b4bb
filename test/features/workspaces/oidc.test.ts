import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { closedPort } from '../../fixtures/closed-port.ts';
import {
  type OidcAccount,
  type OidcProviderFixture,
  startOidcProvider,
} from '../../fixtures/oidc-provider.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * OpenID Connect sign-in (SPEC §11) against a real provider on loopback: the matching rule (subject,
 * then a verified email, then a new user), and every broken callback answered with the sign-in page,
 * `oidc-failed`, and no session.
 */

const BASE_URL = 'https://sn.ip';
const CLIENT = { clientId: 'snip', clientSecret: 'a-long-enough-client-secret-for-tests' };
const PASSWORD = 'correct horse battery';
const PENDING = 'snip_oidc';

const ACCOUNTS: Record<string, OidcAccount> = {
  ada: { email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace' },
  lin: { email: 'Lin@Example.com', email_verified: false },
  grace: { email: 'grace@example.com', email_verified: true },
  hedy: { email: 'hedy@example.com', email_verified: true },
  mallory: { email: 'victim@example.com', email_verified: false },
  anon: { email: '', email_verified: false },
  stranger: { email: 'stranger@example.com', email_verified: true },
  member: { email: 'member-elsewhere@example.com', email_verified: false },
};

async function startSuite(env: Record<string, string> = {}, now?: () => number) {
  const provider = await startOidcProvider({
    ...CLIENT,
    redirectUris: [`${BASE_URL}/auth/oidc/callback`],
    accounts: ACCOUNTS,
  });
  const t = await startTestApp({
    env: {
      BASE_URL,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT.clientId,
      OIDC_CLIENT_SECRET: CLIENT.clientSecret,
      OIDC_NAME: 'Test IdP',
      ...env,
    },
    now,
  });
  return { provider, t };
}

/** GET /auth/oidc: the provider's authorization URL; the client now holds the pending cookie. */
async function begin(client: PageClient, next?: string): Promise<string> {
  const answer = await client.get(
    next === undefined ? '/auth/oidc' : `/auth/oidc?next=${encodeURIComponent(next)}`,
  );
  assert.equal(answer.statusCode, 303);
  assert.ok(client.cookies.has(PENDING), 'the pending sign-in is kept in a cookie');
  return String(answer.headers.location);
}

const local = (url: URL) => `${url.pathname}${url.search}`;

const setsSession = (answer: LightMyRequestResponse) =>
  (answer.cookies as Array<{ name: string; value: string }>).some(
    (cookie) => cookie.name === 'snip_session' && cookie.value !== '',
  );

function assertRefused(answer: LightMyRequestResponse, status = 400): void {
  assert.equal(answer.statusCode, status);
  assert.equal(attribute(answer.body, 'data-error'), 'oidc-failed');
  assert.match(answer.body, /action="\/login"/, 'the sign-in page, to try again');
  assert.equal(setsSession(answer), false, 'no session is started');
}

describe('OIDC sign-in against a real provider', () => {
  let provider: OidcProviderFixture;
  let t: TestApp;
  let offsetMs = 0;
  before(async () => {
    ({ provider, t } = await startSuite({}, () => Date.now() + offsetMs));
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  async function signInAs(client: PageClient, subject: string, next?: string) {
    const callback = await provider.signIn(await begin(client, next), subject);
    return client.get(local(callback));
  }

  it('sends the browser to the provider with a sealed, HttpOnly, SameSite=Lax pending cookie on /auth/oidc', async () => {
    const answer = await new PageClient(t.app).get('/auth/oidc');
    assert.equal(answer.statusCode, 303);
    const location = new URL(String(answer.headers.location));
    assert.equal(location.origin, provider.issuer);
    assert.equal(location.searchParams.get('redirect_uri'), `${BASE_URL}/auth/oidc/callback`);
    const cookie = [answer.headers['set-cookie']]
      .flat()
      .map(String)
      .find((c) => c.startsWith(`${PENDING}=`));
    assert.ok(cookie);
    for (const part of [
      /; HttpOnly/,
      /; SameSite=Lax/,
      /; Secure/,
      /; Path=\/auth\/oidc(;|$)/,
      /; Max-Age=600/,
    ]) {
      assert.match(cookie, part);
    }
    assert.ok(!cookie.includes(String(location.searchParams.get('state'))), 'the state is not readable');
  });

  it('creates a new person with a personal workspace and a session that opens the dashboard', async () => {
    const client = new PageClient(t.app);
    const answer = await signInAs(client, 'ada');
    assert.equal(answer.statusCode, 303);
    assert.equal(answer.headers.location, '/dashboard');
    assert.ok(setsSession(answer));
    assert.equal(client.cookies.has(PENDING), false, 'the pending cookie is cleared');
    const account = await t.store.findAccountByEmail('ada@example.com');
    assert.ok(account);
    assert.equal(account.workspace.plan.name, 'free');
    assert.equal(account.user.emailVerified, true);
    assert.equal(account.user.passwordHash, null);
    assert.ok(await t.store.findMainKey(account.workspace.id), 'the workspace gets its main key');
    assert.equal((await t.store.findUserByIdentity(provider.issuer, 'ada'))?.id, account.user.id);
    const home = await client.openHome();
    assert.equal(client.home, `/w/${account.workspace.slug}`);
    assert.equal(home.statusCode, 200);
  });

  it('signs the same subject in again as the same user', async () => {
    await signInAs(new PageClient(t.app), 'ada');
    const users = (await t.store.listAccounts()).length;
    const client = new PageClient(t.app);
    const answer = await signInAs(client, 'ada');
    assert.equal(answer.statusCode, 303);
    assert.equal((await t.store.listAccounts()).length, users, 'no second user');
    const account = await t.store.findAccountByEmail('ada@example.com');
    assert.equal((await client.openHome()).statusCode, 200);
    assert.equal(client.home, `/w/${account?.workspace.slug}`);
  });

  it('creates a new person whose email the provider has not verified as unverified', async () => {
    const answer = await signInAs(new PageClient(t.app), 'lin');
    assert.equal(answer.statusCode, 303);
    const user = await t.store.findUserByEmail('lin@example.com');
    assert.equal(user?.emailVerified, false);
  });

  it('returns to a local next, and to the dashboard instead of another site', async () => {
    const local = await signInAs(new PageClient(t.app), 'ada', '/invitations/abc');
    assert.equal(local.headers.location, '/invitations/abc');
    const away = await signInAs(new PageClient(t.app), 'ada', 'https://evil.example/');
    assert.equal(away.headers.location, '/dashboard');
  });

  it('links an existing password user through a verified email, then signs them in by subject', async () => {
    const { account } = await t.ops.createAccount('grace@example.com', 'tester', PASSWORD);
    const first = await signInAs(new PageClient(t.app), 'grace');
    assert.equal(first.statusCode, 303);
    assert.ok(setsSession(first));
    assert.equal((await t.store.findUserByIdentity(provider.issuer, 'grace'))?.id, account.user.id);
    const client = new PageClient(t.app);
    assert.equal((await signInAs(client, 'grace')).statusCode, 303);
    await client.openHome();
    assert.equal(client.home, `/w/${account.workspace.slug}`);
    assert.equal((await new PageClient(t.app).signIn('grace@example.com', PASSWORD)).statusCode, 303);
  });

  it('signs a person with two-factor sign-in on in without a code: the provider vouches (SPEC 22)', async () => {
    const { account } = await t.ops.createAccount('hedy@example.com', 'tester', PASSWORD);
    await t.store.enableTwoFactor(account.user.id, 'v1.sealed.elsewhere.x', 0, []);
    const byPassword = await new PageClient(t.app).signIn('hedy@example.com', PASSWORD);
    assert.equal(byPassword.statusCode, 200, 'the password alone is not enough');
    const byProvider = await signInAs(new PageClient(t.app), 'hedy');
    assert.equal(byProvider.statusCode, 303);
    assert.ok(setsSession(byProvider));
  });

  it('refuses an unverified email matching an existing user and links nothing', async () => {
    const { account } = await t.ops.createAccount('victim@example.com', 'tester', PASSWORD);
    const users = (await t.store.listAccounts()).length;
    assertRefused(await signInAs(new PageClient(t.app), 'mallory'));
    assert.equal(await t.store.findUserByIdentity(provider.issuer, 'mallory'), undefined);
    assert.equal((await t.store.listAccounts()).length, users);
    assert.equal((await t.store.findUserByEmail('victim@example.com'))?.id, account.user.id);
  });

  it('refuses a new person without an email', async () => {
    assertRefused(await signInAs(new PageClient(t.app), 'anon'));
    assert.equal(await t.store.findUserByIdentity(provider.issuer, 'anon'), undefined);
  });

  it('refuses a callback with a wrong state, and its pending sign-in is spent', async () => {
    const client = new PageClient(t.app);
    const callback = await provider.signIn(await begin(client), 'ada');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged');
    assertRefused(await client.get(local(forged)));
    assert.equal(client.cookies.has(PENDING), false, 'the pending cookie is cleared at once');
    assertRefused(await client.get(local(callback)));
  });

  it('refuses a replayed callback, the code being used already', async () => {
    const client = new PageClient(t.app);
    const callback = await provider.signIn(await begin(client), 'ada');
    const pending = String(client.cookies.get(PENDING));
    assert.equal((await client.get(local(callback))).statusCode, 303);
    // Someone holding both the callback and the pending cookie gets nothing from the spent code.
    const thief = new PageClient(t.app);
    thief.cookies.set(PENDING, pending);
    assertRefused(await thief.get(local(callback)));
    // Nor does a fresh sign-in of the same browser make the old callback good.
    const again = new PageClient(t.app);
    await begin(again);
    assertRefused(await again.get(local(callback)));
  });

  it('refuses a callback without the pending cookie, with a forged or altered one, or expired', async () => {
    const client = new PageClient(t.app);
    const callback = await provider.signIn(await begin(client), 'ada');
    const sealed = String(client.cookies.get(PENDING));
    assertRefused(await new PageClient(t.app).get(local(callback)));
    for (const forged of [
      'nonsense',
      'A'.repeat(120),
      `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`,
    ]) {
      const other = new PageClient(t.app);
      other.cookies.set(PENDING, forged);
      assertRefused(await other.get(local(callback)));
    }
    const late = new PageClient(t.app);
    late.cookies.set(PENDING, sealed);
    offsetMs = 11 * 60_000;
    try {
      assertRefused(await late.get(local(callback)));
    } finally {
      offsetMs = 0;
    }
  });

  it('refuses a callback with missing parameters or error=access_denied, never with a 500', async () => {
    const bare = new PageClient(t.app);
    await begin(bare);
    assertRefused(await bare.get('/auth/oidc/callback'));
    const codeless = new PageClient(t.app);
    const callback = await provider.signIn(await begin(codeless), 'ada');
    callback.searchParams.delete('code');
    assertRefused(await codeless.get(local(callback)));
    const declining = new PageClient(t.app);
    const denied = await provider.deny(await begin(declining));
    assert.equal(denied.searchParams.get('error'), 'access_denied');
    assertRefused(await declining.get(local(denied)));
  });

  it('shows the "Sign in with" button on the sign-in page', async () => {
    const page = await new PageClient(t.app).get('/login?next=/w/team');
    assert.equal(attribute(page.body, 'data-oidc'), 'start');
    assert.match(page.body, /href="\/auth\/oidc\?next=%2Fw%2Fteam"/);
  });
});

describe('OIDC sign-in with SIGNUP=closed', () => {
  let provider: OidcProviderFixture;
  let t: TestApp;
  before(async () => {
    ({ provider, t } = await startSuite({ SIGNUP: 'closed' }));
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  it('refuses a new person and creates nothing', async () => {
    const client = new PageClient(t.app);
    const callback = await provider.signIn(await begin(client), 'stranger');
    assertRefused(await client.get(local(callback)));
    assert.equal(await t.store.findUserByEmail('stranger@example.com'), undefined);
  });

  it('signs in a person linked already, whatever email the provider gives', async () => {
    const { account } = await t.ops.createAccount('member@example.com', 'tester', PASSWORD);
    await t.store.linkIdentity(account.user.id, provider.issuer, 'member');
    const client = new PageClient(t.app);
    const answer = await client.get(local(await provider.signIn(await begin(client), 'member')));
    assert.equal(answer.statusCode, 303);
    assert.ok(setsSession(answer));
    await client.openHome();
    assert.equal(client.home, `/w/${account.workspace.slug}`);
  });
});

describe('OIDC sign-in with the provider out of reach', () => {
  it('answers /auth/oidc with the sign-in page and 503', async () => {
    const port = await closedPort();
    const t = await startTestApp({
      env: { OIDC_ISSUER: `http://127.0.0.1:${port}`, OIDC_CLIENT_ID: 'snip', OIDC_CLIENT_SECRET: 's' },
    });
    try {
      const answer = await new PageClient(t.app).get('/auth/oidc');
      assertRefused(answer, 503);
      assert.ok(answer.headers['retry-after']);
    } finally {
      await t.close();
    }
  });
});

describe('OIDC sign-in without configuration', () => {
  it('shows no "Sign in with" button and has no /auth/oidc routes', async () => {
    const t = await startTestApp();
    try {
      const client = new PageClient(t.app);
      assert.equal(attribute((await client.get('/login')).body, 'data-oidc'), undefined);
      assert.equal((await client.get('/auth/oidc')).statusCode, 404);
      assert.equal((await client.get('/auth/oidc/callback?code=x&state=y')).statusCode, 404);
    } finally {
      await t.close();
    }
  });
});
