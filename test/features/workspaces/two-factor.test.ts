import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { runSnip } from '../../fixtures/cli-harness.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import type { TestApp } from '../../helper.ts';

/**
 * Two-factor sign-in (docs/api.md §22): TOTP codes computed here from the secret the page shows,
 * one step either side, each step's code once; five wrong codes → 429; recovery codes once each;
 * off with a code, or by the operator's command. On each store.
 */

const PASSWORD = 'correct horse battery';
const STEP_MS = 30_000;
const at = (who: string) => `${who}@example.com`;

/** The code of the secret at a time, as an authenticator app shows it. */
const codeAt = (secret: string, ms: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: ms,
  });

for (const kind of STORES) {
  describe(`two-factor sign-in, on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    // The app's clock, moved by the tests: the middle of a step, so ±1 step is exact.
    let clock = Math.floor(Date.now() / STEP_MS) * STEP_MS + STEP_MS / 2;

    before(async () => {
      t = await kind.start({ now: () => clock });
      for (const who of ['tina', 'lou', 'rex', 'ola']) await t.ops.createAccount(at(who), 'tester', PASSWORD);
    });
    after(() => t?.close());

    const auditOf = async (action: string) =>
      (await t.store.listAudit({ limit: 100 })).filter((entry) => entry.action === action);

    /** Signs in with the password and turns two-factor on: the secret and the recovery codes. */
    async function turnOn(email: string) {
      const client = new PageClient(t.app);
      assert.equal((await client.signIn(email, PASSWORD)).statusCode, 303);
      const setup = await client.open('/account/2fa');
      assert.equal(setup.statusCode, 200);
      assert.match(setup.body, /src="data:image\/svg\+xml;base64,/, 'the QR code is on the page');
      const secret = attribute(setup.body, 'data-secret') ?? '';
      const sealed = /name="setup" value="([^"]+)"/.exec(setup.body)?.[1] ?? '';
      const wrong = await client.post('/account/2fa', {
        setup: sealed,
        code: codeAt(secret, clock + 5 * STEP_MS),
      });
      assert.equal(wrong.statusCode, 401);
      assert.equal(attribute(wrong.body, 'data-error'), 'code-invalid');
      const done = await client.post('/account/2fa', { setup: sealed, code: codeAt(secret, clock) });
      assert.equal(done.statusCode, 200);
      const codes = [...done.body.matchAll(/<li><code>([a-z2-7]{5}-[a-z2-7]{5})<\/code><\/li>/g)].map(
        (m) => m[1] ?? '',
      );
      assert.equal(codes.length, 10);
      return { client, secret, codes };
    }

    /** A password sign-in: the answer to the password, and to the code when one is given. */
    async function signIn(email: string, code?: string) {
      const client = new PageClient(t.app);
      const asked = await client.signIn(email, PASSWORD);
      if (code === undefined) return { client, asked };
      return { client, asked, answered: await client.post('/login/code', { code }) };
    }

    it('asks for a code after the password, takes one step either side, and each code once', async () => {
      const { secret } = await turnOn(at('tina'));
      assert.equal((await auditOf('2fa.enable')).length, 1);
      clock += 4 * STEP_MS;
      const { client, asked } = await signIn(at('tina'));
      assert.equal(asked.statusCode, 200);
      assert.equal(attribute(asked.body, 'data-state'), 'code-asked');
      assert.equal(client.cookies.has('snip_session'), false, 'no session before the code');
      assert.equal((await client.get('/account')).statusCode, 303);
      const forged = await client.post('/login/code', { code: codeAt(secret, clock), _csrf: 'forged' });
      assert.equal(forged.statusCode, 403);
      const late = await client.post('/login/code', { code: codeAt(secret, clock - 2 * STEP_MS) });
      assert.equal(late.statusCode, 401);
      const ok = await client.post('/login/code', { code: codeAt(secret, clock - STEP_MS) });
      assert.equal(ok.statusCode, 303);
      assert.equal((await client.get('/account')).statusCode, 200);
      // The same step's code again, and an older one, are refused; the next step's is taken.
      assert.equal((await signIn(at('tina'), codeAt(secret, clock - STEP_MS))).answered?.statusCode, 401);
      assert.equal((await signIn(at('tina'), codeAt(secret, clock + STEP_MS))).answered?.statusCode, 303);
      assert.equal((await signIn(at('tina'), codeAt(secret, clock))).answered?.statusCode, 401);
    });

    it('refuses every code for the window after five wrong ones with 429', async () => {
      const { secret } = await turnOn(at('lou'));
      // A window later: the wrong code of turning it on is forgotten.
      clock += 15 * 60_000;
      const { client } = await signIn(at('lou'));
      for (let i = 0; i < 5; i++) {
        assert.equal((await client.post('/login/code', { code: '000000' })).statusCode, 401);
      }
      const right = await client.post('/login/code', { code: codeAt(secret, clock) });
      assert.equal(right.statusCode, 429);
      assert.ok(Number(right.headers['retry-after']) > 0);
      clock += 15 * 60_000;
      assert.equal((await signIn(at('lou'), codeAt(secret, clock))).answered?.statusCode, 303);
    });

    it('signs in with each recovery code once', async () => {
      const { codes } = await turnOn(at('rex'));
      const [first = '', second = ''] = codes;
      assert.equal((await signIn(at('rex'), first.toUpperCase())).answered?.statusCode, 303);
      assert.equal((await signIn(at('rex'), first)).answered?.statusCode, 401);
      assert.equal((await signIn(at('rex'), second.replace('-', ' '))).answered?.statusCode, 303);
      assert.equal((await auditOf('2fa.recovery-used')).length, 2);
    });

    it('turns off only with a right code, and the operator turns it off by command', async () => {
      const { client, secret } = await turnOn(at('ola'));
      clock += 2 * STEP_MS;
      await client.open('/account');
      const wrong = await client.post('/account/2fa/off', { code: '123456' });
      assert.equal(wrong.statusCode, 401);
      assert.equal((await client.post('/account/2fa/off', { code: codeAt(secret, clock) })).statusCode, 303);
      assert.equal((await signIn(at('ola'))).asked.statusCode, 303, 'the password alone signs in again');
      await turnOn(at('ola'));
      const env = { DATABASE_URL: t.config.databaseUrl, BASE_URL: 'https://sn.ip' };
      const done = await runSnip(env, {}, ['user', '2fa-off', at('ola'), '--json']);
      assert.equal(done.code, 0, done.err);
      assert.equal(done.json.was_on, true);
      assert.equal((await signIn(at('ola'))).asked.statusCode, 303);
      const offs = await auditOf('2fa.disable');
      assert.deepEqual(
        offs.map((entry) => entry.actor),
        ['cli', at('ola')],
      );
      assert.notEqual((await runSnip(env, {}, ['user', '2fa-off', at('nobody')])).code, 0);
    });
  });
}
