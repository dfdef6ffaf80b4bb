import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { newLinkToken } from '../../../src/core/link-token.ts';
import {
  isDisposableDomain,
  isDisposableEmail,
} from '../../../src/features/workspaces/disposable-domains.ts';
import { SIGNUPS_PER_HOUR } from '../../../src/features/workspaces/sign-in.ts';
import { clearOfWindowEnd, HOUR_MS } from '../../fixtures/clear-of-window.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * Sign-up hygiene (SPEC §13): SIGNUP=open|invite|closed, addresses at disposable email domains
 * refused unless SIGNUP_BLOCK_DISPOSABLE=false, and at most 5 sign-ups per address an hour.
 */

const PASSWORD = 'correct horse battery';
const DAY_MS = 86_400_000;

/** A pending invitation to the test app's own workspace; its page's path. */
async function invitation(t: TestApp, email: string, expiresInMs = 7 * DAY_MS): Promise<string> {
  const owner = await t.store.findAccountByEmail(t.email);
  assert.ok(owner);
  const { token, hash } = newLinkToken();
  await t.store.createInvitation({
    workspaceId: owner.workspace.id,
    email,
    role: 'member',
    tokenHash: hash,
    invitedBy: null,
    expiresAt: new Date(Date.now() + expiresInMs),
  });
  return `/invitations/${token}`;
}

/** Opens the sign-up form (through the invitation when given) and posts it. */
async function signUpThrough(client: PageClient, email: string, next?: string) {
  await client.open(next === undefined ? '/signup' : `/signup?next=${encodeURIComponent(next)}`);
  return client.post(
    '/signup',
    next === undefined ? { email, password: PASSWORD } : { email, password: PASSWORD, next },
  );
}

async function assertNoUser(t: TestApp, email: string) {
  assert.equal(await t.store.findUserByEmail(email), undefined, `no user ${email}`);
}

describe('the disposable email list', () => {
  it('knows a listed domain and every domain under it, in any case', () => {
    assert.equal(isDisposableEmail('someone@mailinator.com'), true);
    assert.equal(isDisposableEmail('someone@inbox.mailinator.com'), true);
    assert.equal(isDisposableEmail('Someone@A.B.MAILINATOR.COM'), true);
    assert.equal(isDisposableDomain('mailinator.com.'), true, 'a trailing dot changes nothing');
  });

  it('leaves ordinary domains alone, and anything without a domain', () => {
    for (const email of ['ada@example.com', 'ada@gmail.com', 'ada@mail.example.test', 'ada@sn.ip', 'ada']) {
      assert.equal(isDisposableEmail(email), false, email);
    }
    assert.equal(isDisposableDomain('xmailinator.com'), false, 'a parent domain is whole labels only');
  });
});

describe('SIGNUP and SIGNUP_BLOCK_DISPOSABLE settings', () => {
  it('reads open, invite and closed, blocks disposable domains by default, and refuses other values', () => {
    assert.equal(loadConfig({}).signup, 'open');
    assert.equal(loadConfig({ SIGNUP: 'invite' }).signup, 'invite');
    assert.equal(loadConfig({ SIGNUP: 'closed' }).signup, 'closed');
    assert.throws(() => loadConfig({ SIGNUP: 'friends' }), ConfigError);
    assert.equal(loadConfig({}).signupBlockDisposable, true);
    assert.equal(loadConfig({ SIGNUP_BLOCK_DISPOSABLE: 'false' }).signupBlockDisposable, false);
    assert.throws(() => loadConfig({ SIGNUP_BLOCK_DISPOSABLE: 'maybe' }), ConfigError);
  });
});

describe('sign-up with SIGNUP=open', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('refuses an address at a disposable domain, or under one, with 422 and creates nothing', async () => {
    for (const email of ['throwaway@mailinator.com', 'throwaway@inbox.mailinator.com']) {
      const client = new PageClient(t.app, '203.0.113.10');
      const refused = await client.signUp(email, PASSWORD);
      assert.equal(refused.statusCode, 422, email);
      assert.equal(attribute(refused.body, 'data-error'), 'email-disposable', email);
      assert.equal(client.cookies.has('snip_session'), false);
      await assertNoUser(t, email);
    }
  });

  it('accepts an address at an ordinary domain', async () => {
    const answer = await new PageClient(t.app, '203.0.113.11').signUp('lasting@example.org', PASSWORD);
    assert.equal(answer.statusCode, 303);
    assert.ok(await t.store.findUserByEmail('lasting@example.org'));
  });

  it(`allows ${SIGNUPS_PER_HOUR} sign-ups per address an hour, then answers 429 with Retry-After`, async () => {
    assert.equal(SIGNUPS_PER_HOUR, 5);
    await clearOfWindowEnd(HOUR_MS);
    for (let i = 0; i < SIGNUPS_PER_HOUR; i++) {
      const client = new PageClient(t.app, '203.0.113.12');
      assert.equal(
        (await client.signUp(`burst${i}@example.com`, PASSWORD)).statusCode,
        303,
        `sign-up ${i + 1}`,
      );
    }
    const sixth = await new PageClient(t.app, '203.0.113.12').signUp('burst5@example.com', PASSWORD);
    assert.equal(sixth.statusCode, 429);
    assert.equal(attribute(sixth.body, 'data-error'), 'throttled');
    assert.ok(Number(sixth.headers['retry-after']) > 0);
    await assertNoUser(t, 'burst5@example.com');
    const elsewhere = await new PageClient(t.app, '203.0.113.13').signUp('burst5@example.com', PASSWORD);
    assert.equal(elsewhere.statusCode, 303, 'another address is not affected');
  });
});

describe('sign-up with SIGNUP_BLOCK_DISPOSABLE=false', () => {
  it('accepts an address at a disposable domain', async () => {
    const t = await startTestApp({ env: { SIGNUP_BLOCK_DISPOSABLE: 'false' } });
    try {
      const answer = await new PageClient(t.app).signUp('throwaway@mailinator.com', PASSWORD);
      assert.equal(answer.statusCode, 303);
      assert.ok(await t.store.findUserByEmail('throwaway@mailinator.com'));
    } finally {
      await t.close();
    }
  });
});

describe('sign-up with SIGNUP=invite', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { SIGNUP: 'invite' } });
  });
  after(() => t.close());

  it('explains that an invitation is needed, offers no form, and refuses an uninvited email with 403', async () => {
    const client = new PageClient(t.app);
    const page = await client.open('/signup');
    assert.equal(page.statusCode, 200);
    assert.equal(attribute(page.body, 'data-state'), 'signup-invite');
    assert.doesNotMatch(page.body, /<form method="post" action="\/signup"/);
    // The sign-in form's token, so that the refusal below is the sign-up rule's, not the forged form's.
    const login = await client.open('/login');
    assert.equal(attribute(login.body, 'data-signup'), undefined, 'the sign-in page offers no sign-up');
    const refused = await client.post('/signup', { email: 'walkin@example.com', password: PASSWORD });
    assert.equal(refused.statusCode, 403);
    assert.equal(attribute(refused.body, 'data-error'), 'signup-closed');
    await assertNoUser(t, 'walkin@example.com');
  });

  it('lets the invited email sign up through its invitation link, which offers "Create an account"', async () => {
    const path = await invitation(t, 'invitee@example.com');
    const client = new PageClient(t.app);
    const offer = await client.get(path);
    assert.equal(offer.statusCode, 200);
    assert.match(offer.body, /href="\/signup\?next=/, 'the invitation offers the sign-up');
    const login = await client.get(`/login?next=${encodeURIComponent(path)}`);
    assert.equal(attribute(login.body, 'data-signup'), 'offer', 'and so does signing in on the way to it');
    const form = await client.open(`/signup?next=${encodeURIComponent(path)}`);
    assert.match(form.body, /<form method="post" action="\/signup"/);
    const created = await signUpThrough(client, 'invitee@example.com', path);
    assert.equal(created.statusCode, 303);
    assert.equal(created.headers.location, path, 'back on the invitation, to accept it');
    assert.ok(await t.store.findUserByEmail('invitee@example.com'));
  });

  it('refuses an invitation link made for another email, or one that has expired', async () => {
    const other = await invitation(t, 'someone-else@example.com');
    const wrong = await signUpThrough(new PageClient(t.app), 'gatecrasher@example.com', other);
    assert.equal(wrong.statusCode, 403);
    assert.equal(attribute(wrong.body, 'data-error'), 'signup-closed');
    await assertNoUser(t, 'gatecrasher@example.com');
    const stale = await invitation(t, 'late@example.com', -1000);
    const late = await signUpThrough(new PageClient(t.app), 'late@example.com', stale);
    assert.equal(late.statusCode, 403);
    await assertNoUser(t, 'late@example.com');
  });

  it('refuses an invited address at a disposable domain all the same', async () => {
    const path = await invitation(t, 'invited@mailinator.com');
    const refused = await signUpThrough(new PageClient(t.app), 'invited@mailinator.com', path);
    assert.equal(refused.statusCode, 422);
    assert.equal(attribute(refused.body, 'data-error'), 'email-disposable');
    await assertNoUser(t, 'invited@mailinator.com');
  });
});

describe('sign-up with SIGNUP=closed', () => {
  it('refuses even an invited email, and the invitation offers signing in only', async () => {
    const t = await startTestApp({ env: { SIGNUP: 'closed' } });
    try {
      const path = await invitation(t, 'invitee@example.com');
      const client = new PageClient(t.app);
      assert.doesNotMatch((await client.get(path)).body, /href="\/signup\?/);
      const page = await client.open(`/signup?next=${encodeURIComponent(path)}`);
      assert.equal(attribute(page.body, 'data-state'), 'signup-closed');
      const refused = await client.post('/signup', {
        email: 'invitee@example.com',
        password: PASSWORD,
        next: path,
      });
      assert.equal(refused.statusCode, 403);
      assert.equal(attribute(refused.body, 'data-error'), 'signup-closed');
      await assertNoUser(t, 'invitee@example.com');
    } finally {
      await t.close();
    }
  });
});
