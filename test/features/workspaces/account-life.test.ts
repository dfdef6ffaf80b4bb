import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { runSnip } from '../../fixtures/cli-harness.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { linkIn, type SmtpInbox, startSmtpInbox } from '../../fixtures/smtp-inbox.ts';
import { STORES } from '../../fixtures/stores.ts';
import type { TestApp } from '../../helper.ts';

/**
 * A person's account over its life (docs/api.md §22): their sessions listed and signed out, a
 * change of email confirmed by a link mailed to the new address (received by a real SMTP server),
 * and deleting the account, refused with 319 while they alone own a team workspace. On each store.
 */

const PASSWORD = 'correct horse battery';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const MINUTE = 60_000;
const at = (who: string) => `${who}@example.com`;

for (const kind of STORES) {
  describe(`sessions, email change and deletion, on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    let inbox: SmtpInbox;
    let clock = Date.now();

    before(async () => {
      inbox = await startSmtpInbox();
      t = await kind.start({
        env: { SMTP_URL: inbox.url, MAIL_FROM: 'Snip <snip@sn.ip>' },
        now: () => clock,
      });
      for (const who of ['sam', 'eve', 'dee', 'tom', 'ivy'])
        await t.ops.createAccount(at(who), 'tester', PASSWORD);
    });
    after(async () => {
      await t?.close();
      await inbox?.close();
    });

    const actions = async () => (await t.store.listAudit({ limit: 200 })).map((entry) => entry.action);

    async function signedIn(email: string, userAgent?: string) {
      const client = new PageClient(t.app);
      client.userAgent = userAgent;
      assert.equal((await client.signIn(email, PASSWORD)).statusCode, 303);
      return client;
    }

    it('lists the sessions by browser family, signs out one and then every other', async () => {
      const here = await signedIn(at('sam'), FIREFOX);
      const there = await signedIn(at('sam'), CHROME);
      const third = await signedIn(at('sam'));
      const page = await here.open('/account');
      assert.equal(page.statusCode, 200);
      assert.equal([...page.body.matchAll(/data-session-row=/g)].length, 3);
      assert.match(page.body, /data-session-row="current">\s*<td data-label="Browser">Firefox on Linux</);
      assert.match(page.body, /Chrome on Windows/);
      assert.doesNotMatch(page.body, /127\.0\.0\.1|Gecko\/20100101/, 'no address, no user agent');
      const handles = [...page.body.matchAll(/name="session" value="([^"]+)"/g)].map((m) => m[1] ?? '');
      assert.equal(handles.length, 2, 'only the other sessions can be signed out one by one');
      // Which handle is Chrome's: the row that holds it names the browser.
      const chromeRow = page.body.split('<tr').find((row) => row.includes('Chrome on Windows')) ?? '';
      const chrome = /name="session" value="([^"]+)"/.exec(chromeRow)?.[1] ?? '';
      assert.equal((await here.post('/account/sessions/end', { session: chrome })).statusCode, 303);
      assert.equal((await there.get('/account')).statusCode, 303, 'that browser is signed out');
      assert.equal((await third.get('/account')).statusCode, 200);
      assert.equal((await here.post('/account/sessions/end-others')).statusCode, 303);
      assert.equal((await third.get('/account')).statusCode, 303);
      assert.equal((await here.get('/account')).statusCode, 200, 'this session stays');
      const done = await actions();
      assert.ok(done.includes('session.end') && done.includes('session.end-others'));
    });

    it('notes when a session was last seen at most every few minutes', async () => {
      const client = await signedIn(at('eve'));
      const user = await t.store.findUserByEmail(at('eve'));
      const seen = async () =>
        (await t.store.listSessionsOfUser(user?.id ?? 0, new Date(clock)))[0]?.lastSeenAt;
      const first = await seen();
      clock += MINUTE;
      await client.get('/account');
      assert.deepEqual(await seen(), first, 'no write a minute later');
      clock += 5 * MINUTE;
      await client.get('/account');
      assert.equal((await seen())?.getTime(), clock);
    });

    it('changes the email only once the link mailed to the new address is followed', async () => {
      const client = await signedIn(at('dee'));
      await client.open('/account');
      const wrong = await client.post('/account/email', { email: 'dee.new@example.com', password: 'not it' });
      assert.equal(wrong.statusCode, 403);
      assert.equal(attribute(wrong.body, 'data-error'), 'wrong-password');
      const asked = await client.post('/account/email', { email: 'dee.new@example.com', password: PASSWORD });
      assert.equal(asked.headers.location, '/account?done=email-mailed');
      const link = new URL(linkIn(await inbox.next({ to: 'dee.new@example.com' }), '/email/change/'))
        .pathname;
      const notice = await inbox.next({ to: at('dee') });
      assert.match(notice.text, /dee\.new@example\.com/);
      assert.equal(
        (await new PageClient(t.app).signIn(at('dee'), PASSWORD)).statusCode,
        303,
        'unchanged yet',
      );
      const other = new PageClient(t.app);
      assert.equal((await other.open(link)).statusCode, 200, 'opening the link changes nothing');
      assert.equal((await other.post(link)).statusCode, 303);
      assert.equal((await new PageClient(t.app).signIn(at('dee'), PASSWORD)).statusCode, 401);
      assert.equal((await new PageClient(t.app).signIn('dee.new@example.com', PASSWORD)).statusCode, 303);
      assert.equal((await other.post(link)).statusCode, 400, 'the link works once');
      assert.ok((await actions()).includes('user.email-change'));
    });

    it('asks a person without a password to type their current email instead', async () => {
      const plan = await t.store.findPlanByName('tester');
      const made = await t.store.createAccount(at('oidc-only'), plan?.id ?? 0, null, true);
      assert.equal(made.kind, 'created');
      const userId = made.kind === 'created' ? made.account.user.id : 0;
      // Signed in as the OpenID sign-in would leave them: a session of the store's, its cookie.
      const client = new PageClient(t.app);
      const id = randomBytes(32).toString('base64url');
      const csrfToken = randomBytes(32).toString('base64url');
      const idHash = createHash('sha256').update(id).digest();
      await t.store.createSession(idHash, { userId, csrfToken, expiresAt: new Date(clock + 3_600_000) });
      client.cookies.set('snip_session', id);
      client.csrf = csrfToken;
      const wrong = await client.post('/account/email', {
        email: 'o.new@example.com',
        password: at('other'),
      });
      assert.equal(wrong.statusCode, 400);
      assert.equal(attribute(wrong.body, 'data-error'), 'confirm-required');
      const asked = await client.post('/account/email', {
        email: 'o.new@example.com',
        password: at('oidc-only'),
      });
      assert.equal(asked.statusCode, 303);
      assert.ok(linkIn(await inbox.next({ to: 'o.new@example.com' }), '/email/change/'));
      await inbox.next({ to: at('oidc-only') });
    });

    it('ends a change of email still waiting when the password changes', async () => {
      const client = await signedIn(at('tom'));
      await client.open('/account');
      await client.post('/account/email', { email: 'tom.new@example.com', password: PASSWORD });
      const link = new URL(linkIn(await inbox.next({ to: 'tom.new@example.com' }), '/email/change/'))
        .pathname;
      await inbox.next({ to: at('tom') });
      const changed = await client.post('/account/password', {
        current: PASSWORD,
        password: 'another long one',
      });
      assert.equal(changed.statusCode, 303);
      const late = await new PageClient(t.app).open(link);
      assert.equal(late.statusCode, 400);
      assert.equal(attribute(late.body, 'data-error'), 'link-invalid');
    });

    it('refuses to delete the last owner of a team workspace with 319, then deletes the account', async () => {
      const env = { DATABASE_URL: t.config.databaseUrl, BASE_URL: 'https://sn.ip' };
      assert.equal(
        (await runSnip(env, {}, ['workspace', 'create', 'ivy-team', '--owner', at('ivy')])).code,
        0,
      );
      const client = await signedIn(at('ivy'));
      await client.open('/account');
      const forged = await client.post('/account/delete', { confirmation: PASSWORD, _csrf: 'forged' });
      assert.equal(forged.statusCode, 403, 'a form without the session’s token changes nothing');
      const wrong = await client.post('/account/delete', { confirmation: 'not it' });
      assert.equal(wrong.statusCode, 403);
      const refused = await client.post('/account/delete', { confirmation: PASSWORD });
      assert.equal(refused.statusCode, 409);
      assert.equal(attribute(refused.body, 'data-error'), '319');
      assert.equal(
        (await runSnip(env, {}, ['member', 'add', 'ivy-team', at('sam'), '--role', 'owner'])).code,
        0,
      );
      const deleted = await client.post('/account/delete', { confirmation: PASSWORD });
      assert.equal(deleted.statusCode, 303);
      assert.equal(deleted.headers.location, '/login?done=account-deleted');
      assert.equal((await client.get('/account')).statusCode, 303);
      assert.equal((await new PageClient(t.app).signIn(at('ivy'), PASSWORD)).statusCode, 401);
      assert.equal(await t.store.findUserByEmail(at('ivy')), undefined);
      assert.ok((await actions()).includes('user.delete'));
    });
  });
}
