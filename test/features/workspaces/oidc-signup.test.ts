import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { newLinkToken } from '../../../src/core/link-token.ts';
import { type OidcProviderFixture, startOidcProvider } from '../../fixtures/oidc-provider.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * Sign-up hygiene at a first OpenID sign-in (SPEC §13), against a real provider on loopback: a new
 * person at a disposable email domain is refused, and under SIGNUP=invite only the invited one,
 * coming through their invitation link, gets an account. Refusals are the sign-in page with `oidc-failed`.
 */

const BASE_URL = 'https://sn.ip';
const CLIENT = { clientId: 'snip', clientSecret: 'a-long-enough-client-secret-for-tests' };
const DAY_MS = 86_400_000;

const ACCOUNTS = {
  throwaway: { email: 'throwaway@mailinator.com', email_verified: true },
  nested: { email: 'someone@inbox.mailinator.com', email_verified: true },
  walkin: { email: 'walkin@example.com', email_verified: true },
  invitee: { email: 'invitee@example.com', email_verified: true },
  invitedThrowaway: { email: 'invited@mailinator.com', email_verified: true },
};

let provider: OidcProviderFixture;
before(async () => {
  provider = await startOidcProvider({
    ...CLIENT,
    redirectUris: [`${BASE_URL}/auth/oidc/callback`],
    accounts: ACCOUNTS,
  });
});
after(() => provider.close());

function startApp(env: Record<string, string> = {}): Promise<TestApp> {
  return startTestApp({
    env: {
      BASE_URL,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT.clientId,
      OIDC_CLIENT_SECRET: CLIENT.clientSecret,
      ...env,
    },
  });
}

/** The whole journey: /auth/oidc (on the way to `next`), the provider signing `subject` in, the callback. */
async function signInAs(t: TestApp, subject: keyof typeof ACCOUNTS, next?: string) {
  const client = new PageClient(t.app);
  const start = await client.get(
    next === undefined ? '/auth/oidc' : `/auth/oidc?next=${encodeURIComponent(next)}`,
  );
  assert.equal(start.statusCode, 303);
  const callback = await provider.signIn(String(start.headers.location), subject);
  return client.get(`${callback.pathname}${callback.search}`);
}

const setsSession = (answer: LightMyRequestResponse) =>
  (answer.cookies as Array<{ name: string; value: string }>).some(
    (cookie) => cookie.name === 'snip_session' && cookie.value !== '',
  );

async function assertRefused(t: TestApp, answer: LightMyRequestResponse, email: string) {
  assert.equal(answer.statusCode, 400);
  assert.equal(attribute(answer.body, 'data-error'), 'oidc-failed');
  assert.match(answer.body, /action="\/login"/, 'the sign-in page, to try again');
  assert.equal(setsSession(answer), false, 'no session is started');
  assert.equal(await t.store.findUserByEmail(email), undefined, `no user ${email}`);
}

/** A pending invitation to the test app's own workspace; its page's path. */
async function invitation(t: TestApp, email: string): Promise<string> {
  const owner = await t.store.findAccountByEmail(t.email);
  assert.ok(owner);
  const { token, hash } = newLinkToken();
  await t.store.createInvitation({
    workspaceId: owner.workspace.id,
    email,
    role: 'member',
    tokenHash: hash,
    invitedBy: null,
    expiresAt: new Date(Date.now() + 7 * DAY_MS),
  });
  return `/invitations/${token}`;
}

describe('a first OpenID sign-in with SIGNUP=open', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(() => t.close());

  it('refuses a new person at a disposable domain, or under one, and creates nothing', async () => {
    await assertRefused(t, await signInAs(t, 'throwaway'), ACCOUNTS.throwaway.email);
    await assertRefused(t, await signInAs(t, 'nested'), ACCOUNTS.nested.email);
  });

  it('makes an account for a new person at an ordinary domain', async () => {
    const answer = await signInAs(t, 'walkin');
    assert.equal(answer.statusCode, 303);
    assert.ok(setsSession(answer));
    assert.ok(await t.store.findUserByEmail(ACCOUNTS.walkin.email));
  });
});

describe('a first OpenID sign-in with SIGNUP_BLOCK_DISPOSABLE=false', () => {
  it('makes an account at a disposable domain', async () => {
    const t = await startApp({ SIGNUP_BLOCK_DISPOSABLE: 'false' });
    try {
      const answer = await signInAs(t, 'throwaway');
      assert.equal(answer.statusCode, 303);
      assert.ok(await t.store.findUserByEmail(ACCOUNTS.throwaway.email));
    } finally {
      await t.close();
    }
  });
});

describe('a first OpenID sign-in with SIGNUP=invite', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ SIGNUP: 'invite' });
  });
  after(() => t.close());

  it('refuses a person who comes through no invitation, even one that exists for them', async () => {
    await invitation(t, ACCOUNTS.walkin.email);
    await assertRefused(t, await signInAs(t, 'walkin'), ACCOUNTS.walkin.email);
  });

  it("refuses a person coming through another email's invitation", async () => {
    const path = await invitation(t, 'someone-else@example.com');
    await assertRefused(t, await signInAs(t, 'walkin', path), ACCOUNTS.walkin.email);
  });

  it('makes an account for the invited person coming through their invitation, and leads them back to it', async () => {
    const path = await invitation(t, ACCOUNTS.invitee.email);
    const answer = await signInAs(t, 'invitee', path);
    assert.equal(answer.statusCode, 303);
    assert.equal(answer.headers.location, path);
    assert.ok(setsSession(answer));
    assert.ok(await t.store.findUserByEmail(ACCOUNTS.invitee.email));
  });

  it('refuses an invited person at a disposable domain all the same', async () => {
    const path = await invitation(t, ACCOUNTS.invitedThrowaway.email);
    await assertRefused(t, await signInAs(t, 'invitedThrowaway', path), ACCOUNTS.invitedThrowaway.email);
  });
});
