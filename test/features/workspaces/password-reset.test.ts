import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newLinkToken } from '../../../src/core/link-token.ts';
import { hashPassword } from '../../../src/core/password.ts';
import { clearOfWindowEnd, HOUR_MS } from '../../fixtures/clear-of-window.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { linkIn, type SmtpInbox, startSmtpInbox } from '../../fixtures/smtp-inbox.ts';
import { withoutTokens } from '../../fixtures/without-tokens.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/** Password reset by a mailed single-use link (docs/api.md §11), received by a real SMTP server. */

const OLD = 'correct horse battery';
const NEW = 'a brand new passphrase';
const MINUTE = 60_000;

describe('password reset by mail', () => {
  let inbox: SmtpInbox;
  let t: TestApp;
  // The app's clock, moved forward only, to pass a link's hour.
  let clock = Date.now();

  before(async () => {
    inbox = await startSmtpInbox();
    t = await startTestApp({
      env: { SMTP_URL: inbox.url, MAIL_FROM: 'Snip <snip@sn.ip>', EMAIL_VERIFICATION: 'required' },
      now: () => clock,
    });
  });
  after(async () => {
    await t?.close();
    await inbox?.close();
  });

  async function ask(email: string, address = '127.0.0.1') {
    const client = new PageClient(t.app, address);
    assert.equal((await client.open('/password/forgot')).statusCode, 200);
    return client.post('/password/forgot', { email });
  }

  /** Asks for a reset and reads the mail: the link's path, checked to be in both parts. */
  async function resetPath(email: string): Promise<string> {
    assert.equal((await ask(email)).statusCode, 200);
    const mail = await inbox.next({ to: email });
    assert.equal(mail.from, 'snip@sn.ip');
    const url = linkIn(mail, '/password/reset/');
    assert.ok(url.startsWith('https://sn.ip/password/reset/'), url);
    assert.ok(mail.html.includes(`href="${url}"`), 'the HTML part links to the same address');
    return new URL(url).pathname;
  }

  /** Opens the link's form and sends a new password: the answer to the POST. */
  /** Opens the link and, when it shows the form (only for a good link), sends the new password. */
  async function follow(path: string, password: string, address = '127.0.0.1') {
    const client = new PageClient(t.app, address);
    const form = await client.open(path);
    if (form.statusCode !== 200) return form;
    assert.match(form.body, /<form method="post" action="\/password\/reset\//);
    return client.post(path, { password });
  }

  const signInStatus = async (email: string, password: string) =>
    (await new PageClient(t.app).signIn(email, password)).statusCode;

  it('answers an unknown email exactly like a known one and mails nothing for it', async () => {
    await t.ops.createAccount('known@example.com', 'tester', OLD);
    const client = new PageClient(t.app);
    await client.open('/password/forgot');
    const unknown = await client.post('/password/forgot', { email: 'nobody@example.com' });
    const known = await client.post('/password/forgot', { email: 'known@example.com' });
    assert.equal(unknown.statusCode, 200);
    assert.equal(known.statusCode, unknown.statusCode);
    const withoutTokens = (body: string) => body.replace(/name="_csrf" value="[^"]*"/g, '');
    assert.equal(withoutTokens(unknown.body), withoutTokens(known.body));
    assert.equal(attribute(known.body, 'data-state'), 'reset-requested');
    const first = await inbox.next();
    assert.deepEqual(first.to, ['known@example.com'], 'the first mail after both is the known one’s');
    assert.ok(inbox.received.every((mail) => !mail.to.includes('nobody@example.com')));
  });

  it('sets a new password with the mailed link and ends every session of the user', async () => {
    await t.ops.createAccount('ada@example.com', 'tester', OLD);
    const [laptop, phone] = [new PageClient(t.app), new PageClient(t.app)];
    assert.equal((await laptop.signIn('ada@example.com', OLD)).statusCode, 303);
    assert.equal((await phone.signIn('ada@example.com', OLD)).statusCode, 303);

    const path = await resetPath('ada@example.com');
    const done = await follow(path, NEW);
    assert.equal(done.statusCode, 303);
    assert.equal(done.headers.location, '/login?done=password-reset');

    for (const client of [laptop, phone]) {
      const page = await client.get(client.at(''));
      assert.equal(page.statusCode, 303);
      assert.equal(page.headers.location, '/login');
    }
    assert.equal(await signInStatus('ada@example.com', OLD), 401);
    assert.equal(await signInStatus('ada@example.com', NEW), 303);
  });

  it('refuses the link a second time with link-invalid, before and after its form, changing nothing', async () => {
    await t.ops.createAccount('bob@example.com', 'tester', OLD);
    const path = await resetPath('bob@example.com');
    const early = new PageClient(t.app);
    assert.equal(
      (await early.open(path)).statusCode,
      200,
      'a second tab opened the form while the link was good',
    );
    assert.equal((await follow(path, NEW)).statusCode, 303);
    const again = await follow(path, 'yet another password');
    assert.equal(again.statusCode, 400);
    assert.equal(attribute(again.body, 'data-error'), 'link-invalid');
    const late = await early.post(path, { password: 'yet another password' });
    assert.equal(late.statusCode, 400);
    assert.equal(attribute(late.body, 'data-error'), 'link-invalid');
    assert.equal(await signInStatus('bob@example.com', 'yet another password'), 401);
    assert.equal(await signInStatus('bob@example.com', NEW), 303);
  });

  it('keeps the link when the new password is refused', async () => {
    await t.ops.createAccount('cy@example.com', 'tester', OLD);
    const path = await resetPath('cy@example.com');
    const short = await follow(path, 'short');
    assert.equal(short.statusCode, 400);
    assert.equal(attribute(short.body, 'data-error'), 'password-invalid');
    assert.match(short.body, /<form method="post" action="\/password\/reset\//, 'the form is shown again');
    assert.equal((await follow(path, NEW)).statusCode, 303);
    assert.equal(await signInStatus('cy@example.com', NEW), 303);
  });

  it('refuses a guessed or malformed token with 400 link-invalid', async () => {
    const guessed = `/password/reset/${newLinkToken().token}`;
    const refused = await follow(guessed, NEW, '10.0.0.1');
    assert.equal(refused.statusCode, 400);
    assert.equal(attribute(refused.body, 'data-error'), 'link-invalid');
    const malformed = await new PageClient(t.app).get('/password/reset/not-a-token');
    assert.equal(malformed.statusCode, 400);
    assert.equal(attribute(malformed.body, 'data-error'), 'link-invalid');
  });

  it('answers 429 to an address that tried many wrong links, even with a good one', async () => {
    await t.ops.createAccount('dee@example.com', 'tester', OLD);
    const guesser = '10.0.0.2';
    await clearOfWindowEnd(HOUR_MS);
    for (let i = 0; i < 10; i++) {
      assert.equal((await follow(`/password/reset/${newLinkToken().token}`, NEW, guesser)).statusCode, 400);
    }
    const path = await resetPath('dee@example.com');
    const throttled = await follow(path, NEW, guesser);
    assert.equal(throttled.statusCode, 429);
    assert.equal(attribute(throttled.body, 'data-error'), 'throttled');
    assert.ok(Number(throttled.headers['retry-after']) > 0);
    // The refusal did not spend the link: from elsewhere it still works.
    assert.equal((await follow(path, NEW, '10.0.0.3')).statusCode, 303);
  });

  it('limits reset requests per email and per address, known or not', async () => {
    await clearOfWindowEnd(HOUR_MS);
    for (let i = 0; i < 5; i++) assert.equal((await ask('ghost@example.com', '10.0.1.1')).statusCode, 200);
    const perEmail = await ask('ghost@example.com', '10.0.1.2');
    assert.equal(perEmail.statusCode, 429);
    assert.equal(attribute(perEmail.body, 'data-error'), 'throttled');
    for (let i = 0; i < 20; i++) {
      assert.equal((await ask(`ghost${i}@example.com`, '10.0.1.3')).statusCode, 200);
    }
    assert.equal((await ask('ghost-last@example.com', '10.0.1.3')).statusCode, 429);
  });

  it('refuses a form without its token and an address that is no email', async () => {
    const forged = await new PageClient(t.app).post('/password/forgot', { email: 'ada@example.com' });
    assert.equal(forged.statusCode, 403);
    const invalid = await ask('not-an-email');
    assert.equal(invalid.statusCode, 400);
    assert.equal(attribute(invalid.body, 'data-error'), 'email-invalid');
  });

  it('confirms the email of the user who followed the link', async () => {
    const plan = await t.store.findPlanByName('tester');
    assert.ok(plan);
    await t.store.createAccount('eve@example.com', plan.id, await hashPassword(OLD), false);
    const path = await resetPath('eve@example.com');
    assert.equal((await follow(path, NEW)).statusCode, 303);
    assert.equal((await t.store.findUserByEmail('eve@example.com'))?.emailVerified, true);
  });

  it('refuses a link once its hour has passed', async () => {
    await t.ops.createAccount('fay@example.com', 'tester', OLD);
    const path = await resetPath('fay@example.com');
    clock += 59 * MINUTE;
    assert.equal((await new PageClient(t.app).open(path)).statusCode, 200, 'still good a minute before');
    clock += 2 * MINUTE;
    const expired = await follow(path, 'too late a password');
    assert.equal(expired.statusCode, 400);
    assert.equal(attribute(expired.body, 'data-error'), 'link-invalid');
    assert.equal(await signInStatus('fay@example.com', OLD), 303);
  });
});

describe('password reset without mail', () => {
  it('tells the person to ask the operator, on the page and after a POST', async () => {
    const t = await startTestApp();
    try {
      const client = new PageClient(t.app);
      const page = await client.open('/password/forgot');
      assert.equal(page.statusCode, 200);
      assert.equal(attribute(page.body, 'data-state'), 'reset-by-operator');
      assert.doesNotMatch(withoutTokens(page.body), /npx|snip account/);
      const posted = await client.post('/password/forgot', { email: t.email });
      assert.equal(posted.statusCode, 200);
      assert.equal(attribute(posted.body, 'data-state'), 'reset-by-operator');
    } finally {
      await t.close();
    }
  });
});
