import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newLinkToken } from '../../../src/core/link-token.ts';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { runSnip } from '../../fixtures/cli-harness.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { linkIn, type SmtpInbox, startSmtpInbox } from '../../fixtures/smtp-inbox.ts';
import { STORES } from '../../fixtures/stores.ts';
import type { TestApp } from '../../helper.ts';

/**
 * What ends with a person's power or password (docs/api.md §11): the pending invitations a member
 * made end when they are removed or demoted below them, and every reset link of a person ends with
 * a reset or a password change. On each store.
 */

const PASSWORD = 'correct horse battery';
const NEW = 'a brand new passphrase';
const at = (who: string) => `${who}@example.com`;
const pathOf = (url: unknown) => new URL(String(url)).pathname;
// Each sign-up from an address of its own: an address makes only a few an hour.
let addresses = 0;
const newcomer = (app: TestApp['app']) => new PageClient(app, `10.9.0.${++addresses}`);

for (const kind of STORES) {
  describe(`invitations outlive no power of their maker, on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    const keys: Record<string, string> = {};
    const snip = async (...argv: string[]) => {
      const env = { DATABASE_URL: t.config.databaseUrl, BASE_URL: 'https://sn.ip' };
      const done = await runSnip(env, {}, [...argv, '--json']);
      assert.equal(done.code, 0, `snip ${argv.join(' ')}: ${done.err}`);
      return done.json;
    };

    before(async () => {
      t = await kind.start();
      for (const who of ['olive', 'otto', 'adam', 'abe', 'ann'])
        await snip('account', 'create', at(who), '--plan', 'tester', '--password', PASSWORD);
      await snip('workspace', 'create', 'acme', '--owner', at('olive'), '--name', 'Acme');
      await snip('member', 'add', 'acme', at('otto'), '--role', 'owner');
      for (const who of ['adam', 'abe', 'ann'])
        await snip('member', 'add', 'acme', at(who), '--role', 'admin');
      for (const who of ['olive', 'otto', 'adam', 'abe', 'ann'])
        keys[who] = String((await snip('key', 'create', 'acme', '--by', at(who))).api_key);
    });
    after(() => t?.close());

    async function invite(by: string, email: string, role: string): Promise<string> {
      const made = await callApi(t.app, 'POST', '/invitations', { key: keys[by], body: { email, role } });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return pathOf(made.body.url);
    }

    /** Signs up as `email` (no mail here: at once) and tries the invitation: the answer to the accept. */
    async function accept(email: string, path: string) {
      const client = newcomer(t.app);
      assert.equal((await client.signUp(email, PASSWORD)).statusCode, 303);
      await client.openHome();
      return { seen: await client.get(path), taken: await client.post(`${path}/accept`) };
    }

    const roleIn = async (email: string) => {
      const answer = await callApi(t.app, 'GET', '/members', { key: keys.olive });
      const items = answer.body.items as { email: string; role: string }[];
      return items.find((m) => m.email === email)?.role;
    };
    const pendingEmails = async () => {
      const answer = await callApi(t.app, 'GET', '/invitations', { key: keys.olive });
      return (answer.body.items as { email: string }[]).map((i) => i.email);
    };

    function assertGone(answer: {
      seen: { statusCode: number };
      taken: { statusCode: number; body: string };
    }) {
      assert.equal(answer.seen.statusCode, 410);
      assert.equal(answer.taken.statusCode, 410);
      assert.equal(attribute(answer.taken.body, 'data-error'), 'invitation-gone');
    }

    it('refuses (410 invitation-gone) the admin invitation of an admin removed since, granting nothing', async () => {
      const path = await invite('adam', at('adam-two'), 'admin');
      assert.equal(
        (await callApi(t.app, 'DELETE', `/members/${at('adam')}`, { key: keys.olive })).status,
        204,
      );
      assert.ok(!(await pendingEmails()).includes(at('adam-two')), 'no longer pending');
      assertGone(await accept(at('adam-two'), path));
      assert.equal(await roleIn(at('adam-two')), undefined);
    });

    it('ends every invitation of an admin demoted to member, and only theirs', async () => {
      const mine = await invite('abe', at('abe-two'), 'member');
      const other = await invite('ann', at('ann-two'), 'viewer');
      const demote = { key: keys.olive, body: { role: 'member' } };
      assert.equal((await callApi(t.app, 'PATCH', `/members/${at('abe')}`, demote)).status, 200);
      assertGone(await accept(at('abe-two'), mine));
      assert.equal(await roleIn(at('abe-two')), undefined);
      const kept = await accept(at('ann-two'), other);
      assert.equal(kept.taken.statusCode, 303, "another admin's invitation stands");
      assert.equal(await roleIn(at('ann-two')), 'viewer');
    });

    it('ends the owner invitations of an owner demoted to admin, keeping those an admin may make', async () => {
      const owner = await invite('otto', at('otto-owner'), 'owner');
      const admin = await invite('otto', at('otto-admin'), 'admin');
      const demote = { key: keys.olive, body: { role: 'admin' } };
      assert.equal((await callApi(t.app, 'PATCH', `/members/${at('otto')}`, demote)).status, 200);
      assertGone(await accept(at('otto-owner'), owner));
      assert.equal(await roleIn(at('otto-owner')), undefined);
      assert.equal((await accept(at('otto-admin'), admin)).taken.statusCode, 303);
      assert.equal(await roleIn(at('otto-admin')), 'admin');
    });

    it('refuses a pending invitation whose maker is no longer a member, however it was left pending', async () => {
      const workspace = await t.store.findWorkspaceBySlug('acme');
      const gone = await t.store.findUserByEmail(at('adam'));
      assert.ok(workspace && gone && !(await t.store.roleOf(workspace.id, gone.id)));
      const { token, hash } = newLinkToken();
      await t.store.createInvitation({
        workspaceId: workspace.id,
        email: at('late'),
        role: 'member',
        tokenHash: hash,
        invitedBy: gone.id,
        expiresAt: new Date(Date.now() + 60_000),
      });
      const client = newcomer(t.app);
      assert.equal((await client.signUp(at('late'), PASSWORD)).statusCode, 303);
      await client.openHome();
      const taken = await client.post(`/invitations/${token}/accept`);
      assert.equal(taken.statusCode, 410);
      assert.equal(attribute(taken.body, 'data-error'), 'invitation-gone');
      assert.equal(await roleIn(at('late')), undefined);
      assert.equal((await client.get(`/invitations/${token}`)).statusCode, 410, 'revoked by the attempt');
    });

    it("keeps the operator's invitations whoever leaves", async () => {
      const workspace = await t.store.findWorkspaceBySlug('acme');
      assert.ok(workspace);
      const { token, hash } = newLinkToken();
      await t.store.createInvitation({
        workspaceId: workspace.id,
        email: at('ops-guest'),
        role: 'owner',
        tokenHash: hash,
        invitedBy: null,
        expiresAt: new Date(Date.now() + 60_000),
      });
      assert.equal((await accept(at('ops-guest'), `/invitations/${token}`)).taken.statusCode, 303);
      assert.equal(await roleIn(at('ops-guest')), 'owner');
    });

    it('still refuses the last owner leaving (319)', async () => {
      for (const who of ['otto', 'ops-guest']) {
        await callApi(t.app, 'DELETE', `/members/${at(who)}`, { key: keys.olive });
      }
      assertProblem(
        await callApi(t.app, 'DELETE', `/members/${at('olive')}`, { key: keys.olive }),
        409,
        '319',
      );
    });
  });

  describe(`reset links end with a new password, on ${kind.name}`, { skip: kind.skip }, () => {
    let inbox: SmtpInbox;
    let t: TestApp;

    before(async () => {
      inbox = await startSmtpInbox();
      t = await kind.start({
        env: { SMTP_URL: inbox.url, MAIL_FROM: 'Snip <snip@sn.ip>', EMAIL_VERIFICATION: 'off' },
      });
    });
    after(async () => {
      await t?.close();
      await inbox?.close();
    });

    /** Asks for a reset link and reads it from the mail. */
    async function resetPath(email: string): Promise<string> {
      const client = new PageClient(t.app);
      await client.open('/password/forgot');
      assert.equal((await client.post('/password/forgot', { email })).statusCode, 200);
      return new URL(linkIn(await inbox.next({ to: email }), '/password/reset/')).pathname;
    }

    /** Opens the link and, when it shows its form, sends a new password: the last answer. */
    async function follow(path: string, password: string) {
      const client = new PageClient(t.app);
      const form = await client.open(path);
      return form.statusCode === 200 ? client.post(path, { password }) : form;
    }

    const assertRefused = (answer: { statusCode: number; body: string }) => {
      assert.equal(answer.statusCode, 400);
      assert.equal(attribute(answer.body, 'data-error'), 'link-invalid');
    };
    const signInStatus = async (email: string, password: string) =>
      (await new PageClient(t.app).signIn(email, password)).statusCode;

    it('refuses every other reset link once one has set a password', async () => {
      await t.ops.createAccount(at('ada'), 'tester', PASSWORD);
      const first = await resetPath(at('ada'));
      const second = await resetPath(at('ada'));
      const opened = new PageClient(t.app);
      assert.equal((await opened.open(first)).statusCode, 200, 'its form was open before');
      assert.equal((await follow(second, NEW)).statusCode, 303);
      assertRefused(await follow(first, 'an older link’s password'));
      assertRefused(await opened.post(first, { password: 'an older link’s password' }));
      assert.equal(await signInStatus(at('ada'), NEW), 303);
      assert.equal(await signInStatus(at('ada'), 'an older link’s password'), 401);
    });

    it('refuses an outstanding reset link once the password was changed on the account page', async () => {
      await t.ops.createAccount(at('bob'), 'tester', PASSWORD);
      const path = await resetPath(at('bob'));
      const client = new PageClient(t.app);
      assert.equal((await client.signIn(at('bob'), PASSWORD)).statusCode, 303);
      await client.open('/account');
      const changed = await client.post('/account/password', { current: PASSWORD, password: NEW });
      assert.equal(changed.statusCode, 303);
      assertRefused(await follow(path, 'what a mail thief would set'));
      assert.equal(await signInStatus(at('bob'), NEW), 303);
    });

    it('refuses an outstanding reset link once the operator set the password', async () => {
      await t.ops.createAccount(at('cy'), 'tester', PASSWORD);
      const path = await resetPath(at('cy'));
      const env = { DATABASE_URL: t.config.databaseUrl, BASE_URL: 'https://sn.ip' };
      const set = await runSnip(env, { stdin: `${NEW}\n` }, ['account', 'password', at('cy'), '--json']);
      assert.equal(set.code, 0, set.err);
      assertRefused(await follow(path, 'what a mail thief would set'));
      assert.equal(await signInStatus(at('cy'), NEW), 303);
    });
  });
}
