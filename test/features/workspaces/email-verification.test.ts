import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newLinkToken } from '../../../src/core/link-token.ts';
import { clearOfWindowEnd, HOUR_MS } from '../../fixtures/clear-of-window.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { linkIn, type SmtpInbox, startSmtpInbox } from '../../fixtures/smtp-inbox.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/** EMAIL_VERIFICATION (docs/api.md §11): a mailed link confirms the email; until then pages wait. */

const PASSWORD = 'correct horse battery';

describe('email verification required', () => {
  let inbox: SmtpInbox;
  let t: TestApp;

  before(async () => {
    inbox = await startSmtpInbox();
    t = await startTestApp({
      env: { SMTP_URL: inbox.url, MAIL_FROM: 'Snip <snip@sn.ip>', EMAIL_VERIFICATION: 'required' },
    });
  });
  after(async () => {
    await t?.close();
    await inbox?.close();
  });

  /** The path of the confirmation link mailed to `email`, checked to be in both parts. */
  async function mailedPath(email: string): Promise<string> {
    const mail = await inbox.next({ to: email });
    const url = linkIn(mail, '/email/verify/');
    assert.ok(url.startsWith('https://sn.ip/email/verify/'), url);
    assert.ok(mail.html.includes(`href="${url}"`), 'the HTML part links to the same address');
    return new URL(url).pathname;
  }

  /**
   * Signs up (with mail, the answer is "check your email" and the account is made after it), reads
   * the confirmation mail, then signs in: the client, and the mailed link's path.
   */
  async function signedUp(email: string): Promise<{ client: PageClient; path: string }> {
    const client = new PageClient(t.app);
    const answer = await client.signUp(email, PASSWORD);
    assert.equal(answer.statusCode, 200);
    assert.equal(attribute(answer.body, 'data-state'), 'signup-mailed');
    const path = await mailedPath(email);
    assert.equal((await client.signIn(email, PASSWORD)).statusCode, 303);
    return { client, path };
  }

  const redirect = async (client: PageClient, url: string) => {
    const answer = await client.get(url);
    return `${answer.statusCode} ${answer.headers.location ?? ''}`;
  };

  it('mails a link on sign-up and sends every signed-in page to confirm it until it is followed', async () => {
    const { client, path } = await signedUp('ada@example.com');
    assert.notEqual(client.home, '', 'the dashboard still names the workspace');
    assert.equal(await redirect(client, client.at('')), '303 /email/verify');
    assert.equal(await redirect(client, client.at('/keys')), '303 /email/verify');
    assert.equal(await redirect(client, '/account'), '303 /email/verify');
    const form = await client.post('/account/password', { current: PASSWORD, password: 'another one!' });
    assert.equal(`${form.statusCode} ${form.headers.location}`, '303 /email/verify');

    const waiting = await client.open('/email/verify');
    assert.equal(waiting.statusCode, 200);
    assert.equal(attribute(waiting.body, 'data-state'), 'email-unverified');
    assert.match(waiting.body, /<form method="post" action="\/email\/verify\/resend"/);

    assert.equal(await redirect(client, path), '303 /dashboard');
    assert.equal((await t.store.findUserByEmail('ada@example.com'))?.emailVerified, true);
    assert.equal((await client.get(client.at(''))).statusCode, 200);
    assert.equal((await client.get('/account')).statusCode, 200);
    assert.equal(await redirect(client, '/email/verify'), '303 /dashboard');
  });

  it('refuses the link a second time, a guessed one and an expired one with 400 link-invalid', async () => {
    const { path } = await signedUp('bob@example.com');
    const visitor = new PageClient(t.app, '10.0.0.1');
    assert.equal(await redirect(visitor, path), '303 /dashboard', 'no session is needed to confirm');
    const user = await t.store.findUserByEmail('bob@example.com');
    assert.ok(user);
    const expired = newLinkToken();
    await t.store.createUserToken(expired.hash, user.id, 'verify', new Date(Date.now() - 1000));
    for (const refused of [path, `/email/verify/${newLinkToken().token}`, `/email/verify/${expired.token}`]) {
      const answer = await visitor.get(refused);
      assert.equal(answer.statusCode, 400, refused);
      assert.equal(attribute(answer.body, 'data-error'), 'link-invalid');
    }
  });

  it('does not take a reset link as a verification link', async () => {
    const { client } = await signedUp('cy@example.com');
    const user = await t.store.findUserByEmail('cy@example.com');
    assert.ok(user);
    const reset = newLinkToken();
    await t.store.createUserToken(reset.hash, user.id, 'reset', new Date(Date.now() + 60_000));
    assert.equal((await client.get(`/email/verify/${reset.token}`)).statusCode, 400);
    assert.equal((await t.store.findUserByEmail('cy@example.com'))?.emailVerified, false);
  });

  it('mails a new link on request, a few times an hour, each form checked for its token', async () => {
    await clearOfWindowEnd(HOUR_MS);
    const { client } = await signedUp('dee@example.com');
    await client.open('/email/verify');
    const forged = await client.post('/email/verify/resend', { _csrf: 'forged' });
    assert.equal(forged.statusCode, 403);

    const sent = await client.post('/email/verify/resend');
    assert.equal(`${sent.statusCode} ${sent.headers.location}`, '303 /email/verify?done=verification-sent');
    const fresh = await mailedPath('dee@example.com');
    for (let i = 0; i < 4; i++) assert.equal((await client.post('/email/verify/resend')).statusCode, 303);
    const throttled = await client.post('/email/verify/resend');
    assert.equal(throttled.statusCode, 429);
    assert.equal(attribute(throttled.body, 'data-error'), 'throttled');
    assert.ok(Number(throttled.headers['retry-after']) > 0);

    assert.equal(await redirect(client, fresh), '303 /dashboard');
    assert.equal((await client.get(client.at(''))).statusCode, 200);
  });

  it('lets a user made by the operator in at once, and sends the signed-out to sign in', async () => {
    await t.ops.createAccount('ops@example.com', 'tester', PASSWORD);
    const client = new PageClient(t.app);
    assert.equal((await client.signIn('ops@example.com', PASSWORD)).statusCode, 303);
    assert.equal((await client.get(client.at(''))).statusCode, 200);
    assert.equal(await redirect(new PageClient(t.app), '/email/verify'), '303 /login');
  });
});

describe('email verification off', () => {
  it('gates nothing without mail, and sign-up leaves the email unconfirmed', async () => {
    const t = await startTestApp();
    try {
      assert.equal(t.config.emailVerification, 'off');
      const client = new PageClient(t.app);
      assert.equal((await client.signUp('ada@example.com', PASSWORD)).statusCode, 303);
      assert.equal((await t.store.findUserByEmail('ada@example.com'))?.emailVerified, false);
      assert.equal((await client.get(client.at(''))).statusCode, 200);
      assert.equal((await client.get('/account')).statusCode, 200);
      const confirm = await client.get('/email/verify');
      assert.equal(`${confirm.statusCode} ${confirm.headers.location}`, '303 /dashboard');
    } finally {
      await t.close();
    }
  });
});
