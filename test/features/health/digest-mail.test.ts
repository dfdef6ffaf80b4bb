import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callApi } from '../../fixtures/api-client.ts';
import { PageClient } from '../../fixtures/page-client.ts';
import { type SmtpInbox, startSmtpInbox } from '../../fixtures/smtp-inbox.ts';
import { STORES } from '../../fixtures/stores.ts';
import { FakeInspector, type TestApp } from '../../helper.ts';

/**
 * The daily mail of newly broken links (docs/api.md §21): to the workspace's owners and admins, at
 * most one a day per workspace, only the links that broke since the last one, and none to a person
 * who turned it off.
 */

const DAY = 24 * 3600_000;

for (const kind of STORES) {
  describe(`the daily mail of broken links on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    let inbox: SmtpInbox;
    const inspector = new FakeInspector();
    // Noon UTC: a day later is another UTC day.
    let clock = Math.floor(Date.now() / DAY) * DAY + DAY / 2;
    let n = 0;

    before(async () => {
      inbox = await startSmtpInbox();
      t = await kind.start({
        now: () => clock,
        inspector,
        env: { SMTP_URL: inbox.url, MAIL_FROM: 'Snip <snip@sn.ip>', EMAIL_VERIFICATION: 'off' },
      });
    });
    after(async () => {
      await t?.close();
      await inbox?.close();
    });

    /** A link whose target then fails two checks in a row. */
    async function broken(): Promise<string> {
      const made = await callApi(t.app, 'POST', '/links', {
        key: t.apiKey,
        body: { url: `https://example.com/gone-${++n}` },
      });
      assert.equal(made.status, 201);
      const code = made.body.short_code as string;
      inspector.outcome = () => ({ ok: false, code: '307', reason: 'target answered 404', status: 404 });
      try {
        for (let i = 0; i < 2; i++)
          assert.equal((await callApi(t.app, 'POST', `/links/${code}/check`, { key: t.apiKey })).status, 200);
      } finally {
        inspector.outcome = (url) => ({ ok: true, title: 'A page', finalUrl: url.href, status: 200 });
      }
      return code;
    }

    it('mails the owner once a day the links that broke since the last mail', async () => {
      const [first, second] = [await broken(), await broken()];
      assert.equal(await t.app.linkHealth.digest(), 1);
      const mail = await inbox.next({ to: t.email });
      assert.match(mail.subject, /2 links/);
      assert.ok(mail.text.includes(`/${first}`) && mail.text.includes(`/${second}`));
      assert.match(mail.text, /the page is gone \(404 Not Found\)/);
      assert.match(mail.text, /\/account\/mail/, 'says where to stop them');

      clock += 60_000;
      const third = await broken();
      assert.equal(await t.app.linkHealth.digest(), 0, 'one a day');
      clock += DAY;
      assert.equal(await t.app.linkHealth.digest(), 1);
      const next = await inbox.next({ to: t.email });
      assert.ok(next.text.includes(`/${third}`));
      assert.ok(!next.text.includes(`/${first}`), 'only the newly broken');
      clock += DAY;
      assert.equal(await t.app.linkHealth.digest(), 0, 'nothing newly broken');
    });

    it('sends nothing to an admin who turned it off on /account/mail, a form with CSRF, audited', async () => {
      const owner = await t.store.findAccountByEmail(t.email);
      assert.ok(owner);
      await t.ops.createAccount('admin@example.com', 'tester', 'correct horse battery');
      const admin = await t.store.findAccountByEmail('admin@example.com');
      assert.ok(admin);
      await t.store.addMember(owner.workspace.id, admin.user.id, 'admin');
      const client = new PageClient(t.app);
      assert.equal((await client.signIn('admin@example.com', 'correct horse battery')).statusCode, 303);
      const shown = await client.open('/account/mail');
      assert.equal(shown.statusCode, 200);
      assert.match(shown.body, /name="health_mail" value="on" checked/);
      assert.equal((await client.post('/account/mail', { _csrf: 'forged' })).statusCode, 403);
      assert.equal(await t.store.healthMailOn(admin.user.id), true, 'a forged form changes nothing');
      assert.equal((await client.post('/account/mail', {})).statusCode, 303);
      assert.equal(await t.store.healthMailOn(admin.user.id), false);
      const audit = await t.store.listAudit({ limit: 20 });
      assert.ok(
        audit.some((entry) => entry.action === 'account.health-mail' && entry.actorId === admin.user.id),
      );

      await broken();
      clock += DAY;
      assert.equal(await t.app.linkHealth.digest(), 1, 'the owner alone');
      assert.deepEqual((await inbox.next({ to: t.email })).to, [t.email]);
      assert.ok(!inbox.received.some((mail) => mail.to.includes('admin@example.com')));
    });
  });
}
