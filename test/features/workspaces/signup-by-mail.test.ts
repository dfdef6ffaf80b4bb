import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { linkIn, type SmtpInbox, startSmtpInbox } from '../../fixtures/smtp-inbox.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/**
 * Sign-up with mail configured (docs/api.md §11): a taken email is answered exactly as a new one,
 * "check your email", and the mail tells the address which it was; no account is made twice.
 * Without mail the clear 409 `email-taken` stays (auth.test.ts).
 */

const PASSWORD = 'correct horse battery';
const INTRUDER = 'an intruder’s password';

describe('sign-up with mail', () => {
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

  /** Signs up from an address of its own (an address makes only a few sign-ups an hour). */
  let addresses = 0;
  async function signUp(email: string, password: string): Promise<LightMyRequestResponse> {
    const client = new PageClient(t.app, `10.8.0.${++addresses}`);
    await client.open('/signup');
    return client.post('/signup', { email, password });
  }

  /** What an answer shows of itself, the email it echoes and its form tokens left out. */
  const shape = (answer: LightMyRequestResponse, email: string) => ({
    status: answer.statusCode,
    headers: Object.keys(answer.headers)
      .filter((name) => name !== 'date' && name !== 'content-length')
      .sort(),
    cookies: (answer.cookies as { name: string }[]).map((cookie) => cookie.name).sort(),
    body: answer.body.replaceAll(email, '<email>').replace(/name="_csrf" value="[^"]*"/g, ''),
  });

  const signInStatus = async (email: string, password: string) =>
    (await new PageClient(t.app).signIn(email, password)).statusCode;

  it('answers a taken email as a new one, and mails each address what it needs', async () => {
    await t.ops.createAccount('known@example.com', 'tester', PASSWORD);
    const fresh = await signUp('fresh@example.com', PASSWORD);
    const taken = await signUp('known@example.com', INTRUDER);
    assert.equal(fresh.statusCode, 200);
    assert.equal(attribute(fresh.body, 'data-state'), 'signup-mailed');
    assert.deepEqual(shape(taken, 'known@example.com'), shape(fresh, 'fresh@example.com'));

    const exists = await inbox.next({ to: 'known@example.com' });
    assert.equal(new URL(linkIn(exists, '/login')).href, 'https://sn.ip/login');
    assert.equal(new URL(linkIn(exists, '/password/forgot')).href, 'https://sn.ip/password/forgot');
    assert.ok(!exists.text.includes('/email/verify/'), 'no link that confirms or signs in');
    const welcome = await inbox.next({ to: 'fresh@example.com' });
    assert.match(linkIn(welcome, '/email/verify/'), /^https:\/\/sn\.ip\/email\/verify\//);
  });

  it('makes no second account and changes nothing of the existing one', async () => {
    const accounts = (await t.store.listAccounts()).filter((a) => a.user.email === 'known@example.com');
    assert.equal(accounts.length, 1);
    assert.equal(await signInStatus('known@example.com', INTRUDER), 401);
    assert.equal(await signInStatus('known@example.com', PASSWORD), 303);
    assert.equal(await signInStatus('fresh@example.com', PASSWORD), 303, 'the new account was made');
  });

  it('still refuses at once what does not depend on the account, the same for both', async () => {
    const fresh = await signUp('short@example.com', 'short');
    const taken = await signUp('known@example.com', 'short');
    assert.equal(fresh.statusCode, 400);
    assert.equal(attribute(fresh.body, 'data-error'), 'password-invalid');
    assert.equal(taken.statusCode, 400);
    assert.equal(attribute(taken.body, 'data-error'), 'password-invalid');
    assert.equal(await t.store.findUserByEmail('short@example.com'), undefined);
  });
});
