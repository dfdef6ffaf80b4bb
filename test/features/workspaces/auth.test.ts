import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openStore } from '../../../src/adapters/open-store.ts';
import { buildApp } from '../../../src/app.ts';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { clearOfWindowEnd } from '../../fixtures/clear-of-window.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { startTestApp } from '../../helper.ts';

/** Sign-up, sign-in, sign-out: sessions, cookies, CSRF on the signed-out forms, throttling, SIGNUP. */

const PASSWORD = 'correct horse battery';

function setCookie(headers: Record<string, unknown>, name: string): string {
  const all = [headers['set-cookie']].flat().map(String);
  const found = all.find((cookie) => cookie.startsWith(`${name}=`));
  assert.ok(found, `a Set-Cookie for ${name} among ${all.join(' | ')}`);
  return found;
}

describe('sign-up', () => {
  it('creates the account, signs it in with an HttpOnly, SameSite=Lax, Secure cookie when BASE_URL is https', async () => {
    const t = await startTestApp();
    try {
      const client = new PageClient(t.app);
      const answer = await client.signUp('ada@example.com', PASSWORD);
      assert.equal(answer.statusCode, 303);
      const cookie = setCookie(answer.headers, 'snip_session');
      assert.match(cookie, /; HttpOnly/);
      assert.match(cookie, /; SameSite=Lax/);
      assert.match(cookie, /; Secure/);
      assert.match(cookie, /; Path=\//);
      const account = await t.store.findAccountByEmail('ada@example.com');
      assert.equal(account?.workspace.plan.name, 'free', 'new accounts get the free plan by default');
      assert.ok(account?.user.passwordHash?.startsWith('scrypt$'));
      assert.ok(await t.store.findMainKey(account.workspace.id), 'the key is created with the account');
      assert.equal((await client.get(client.at(''))).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  it('sets no Secure flag when BASE_URL is plain http', async () => {
    const t = await startTestApp({ env: { BASE_URL: 'http://localhost:8080' } });
    try {
      const client = new PageClient(t.app);
      const answer = await client.signUp('ada@example.com', PASSWORD);
      const cookie = setCookie(answer.headers, 'snip_session');
      assert.doesNotMatch(cookie, /Secure/);
      assert.match(cookie, /; HttpOnly/);
      assert.match(cookie, /; SameSite=Lax/);
    } finally {
      await t.close();
    }
  });

  it('gives new accounts the SIGNUP_PLAN', async () => {
    const t = await startTestApp({ env: { SIGNUP_PLAN: 'tester' } });
    try {
      const answer = await new PageClient(t.app).signUp('ada@example.com', PASSWORD);
      assert.equal(answer.statusCode, 303);
      const account = await t.store.findAccountByEmail('ada@example.com');
      assert.equal(account?.workspace.plan.name, 'tester');
      assert.equal(
        answer.headers.location,
        `/w/${account?.workspace.slug}/keys`,
        'a plan with API access shows the new key first',
      );
    } finally {
      await t.close();
    }
  });

  it('refuses a taken email, a bad email and a short password, creating nothing', async () => {
    const t = await startTestApp();
    try {
      const client = new PageClient(t.app);
      const taken = await client.signUp(t.email, PASSWORD);
      assert.equal(taken.statusCode, 409);
      assert.equal(attribute(taken.body, 'data-error'), 'email-taken');
      const bad = await client.signUp('not-an-email', PASSWORD);
      assert.equal(bad.statusCode, 400);
      assert.equal(attribute(bad.body, 'data-error'), 'email-invalid');
      const short = await client.signUp('bob@example.com', 'short');
      assert.equal(short.statusCode, 400);
      assert.equal(attribute(short.body, 'data-error'), 'password-invalid');
      assert.equal(await t.store.findAccountByEmail('bob@example.com'), undefined);
      assert.equal(client.cookies.has('snip_session'), false);
    } finally {
      await t.close();
    }
  });

  it('is off with SIGNUP=closed: the page says so and a POST is refused', async () => {
    const t = await startTestApp({ env: { SIGNUP: 'closed' } });
    try {
      const client = new PageClient(t.app);
      const page = await client.open('/signup');
      assert.equal(page.statusCode, 200);
      assert.equal(attribute(page.body, 'data-state'), 'signup-closed');
      assert.doesNotMatch(page.body, /<form method="post" action="\/signup"/);
      const refused = await client.post('/signup', { email: 'bob@example.com', password: PASSWORD });
      assert.equal(refused.statusCode, 403);
      assert.equal(await t.store.findAccountByEmail('bob@example.com'), undefined);
      // Accounts the operator made still sign in.
      await t.ops.createAccount('ops@example.com', 'tester', PASSWORD);
      assert.equal((await client.signIn('ops@example.com', PASSWORD)).statusCode, 303);
    } finally {
      await t.close();
    }
  });

  it('stops the start when SIGNUP_PLAN names no plan, unless sign-up is closed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'snip-signup-plan-'));
    const store = await openStore(`sqlite:${join(dir, 'snip.db')}`, { prepare: true });
    try {
      const open = loadConfig({ BASE_URL: 'https://sn.ip', SIGNUP_PLAN: 'gold' });
      await assert.rejects(buildApp(open, { store }), /SIGNUP_PLAN "gold"/);
      const closed = await buildApp(loadConfig({ SIGNUP_PLAN: 'gold', SIGNUP: 'closed' }), { store });
      await closed.close();
      assert.throws(() => loadConfig({ SIGNUP_PLAN: 'Not A Plan!' }), ConfigError);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('sign-in and sign-out', () => {
  it('signs in with the right password and ends the session server-side on sign-out', async () => {
    const t = await startTestApp();
    try {
      await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
      const client = new PageClient(t.app);
      const answer = await client.signIn('ada@example.com', PASSWORD);
      assert.equal(answer.statusCode, 303);
      assert.equal(answer.headers.location, '/dashboard', 'which sends the user to their last workspace');
      const session = client.cookies.get('snip_session');
      assert.ok(session);
      assert.equal((await client.get(client.at(''))).statusCode, 200);

      const out = await client.post('/logout');
      assert.equal(out.statusCode, 303);
      assert.equal(client.cookies.has('snip_session'), false, 'the cookie is cleared');
      // The old cookie value no longer names a session.
      client.cookies.set('snip_session', session);
      const after = await client.get(client.at(''));
      assert.equal(after.statusCode, 303);
      assert.equal(after.headers.location, '/login');
    } finally {
      await t.close();
    }
  });

  it('answers an unknown email and a wrong password with the same status and page', async () => {
    const t = await startTestApp();
    try {
      await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
      const client = new PageClient(t.app);
      await client.open('/login');
      const wrong = await client.post('/login', { email: 'ada@example.com', password: 'wrong password' });
      const unknown = await client.post('/login', {
        email: 'nobody@example.com',
        password: 'wrong password',
      });
      assert.equal(wrong.statusCode, 401);
      assert.equal(unknown.statusCode, wrong.statusCode);
      assert.equal(attribute(wrong.body, 'data-error'), 'sign-in-failed');
      // The page echoes the email typed; apart from that, it is the very same page.
      assert.equal(
        unknown.body.replace('nobody@example.com', 'EMAIL'),
        wrong.body.replace('ada@example.com', 'EMAIL'),
      );
      // An account made without a password cannot sign in, and fails the same way.
      await t.ops.createAccount('nopass@example.com', 'tester');
      const none = await client.post('/login', { email: 'nopass@example.com', password: 'wrong password' });
      assert.equal(none.statusCode, 401);
      assert.equal(client.cookies.has('snip_session'), false);
    } finally {
      await t.close();
    }
  });

  it('refuses an account after 10 failed sign-ins, even with the right password and from another address', async () => {
    const t = await startTestApp();
    try {
      await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
      await clearOfWindowEnd(t.config.signinWindowSeconds * 1000);
      for (let i = 0; i < 10; i++) {
        const attacker = new PageClient(t.app, `203.0.113.${i + 1}`);
        await attacker.open('/login');
        assert.equal(
          (await attacker.post('/login', { email: 'ada@example.com', password: `guess ${i}` })).statusCode,
          401,
        );
      }
      const owner = new PageClient(t.app, '198.51.100.7');
      const refused = await owner.signIn('ada@example.com', PASSWORD);
      assert.equal(refused.statusCode, 429);
      assert.ok(Number(refused.headers['retry-after']) > 0);
      assert.equal(owner.cookies.has('snip_session'), false);
      // Another account from the same addresses is not affected.
      await t.ops.createAccount('bob@example.com', 'tester', PASSWORD);
      assert.equal(
        (await new PageClient(t.app, '203.0.113.1').signIn('bob@example.com', PASSWORD)).statusCode,
        303,
      );
    } finally {
      await t.close();
    }
  });

  it('refuses an address after its failures reach the limit, even for the right password', async () => {
    const t = await startTestApp({ env: { SIGNIN_ADDRESS_LIMIT: '4' } });
    try {
      await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
      const client = new PageClient(t.app, '203.0.113.9');
      await client.open('/login');
      await clearOfWindowEnd(t.config.signinWindowSeconds * 1000);
      for (let i = 0; i < 4; i++) {
        const answer = await client.post('/login', {
          email: `user${i}@example.com`,
          password: 'wrong password',
        });
        assert.equal(answer.statusCode, 401);
      }
      const refused = await client.post('/login', { email: 'ada@example.com', password: PASSWORD });
      assert.equal(refused.statusCode, 429);
      assert.equal(attribute(refused.body, 'data-error'), 'throttled');
      // The account itself is fine from elsewhere.
      assert.equal(
        (await new PageClient(t.app, '198.51.100.1').signIn('ada@example.com', PASSWORD)).statusCode,
        303,
      );
    } finally {
      await t.close();
    }
  });

  it('starts a new session at sign-in and ends the one the browser carried', async () => {
    const t = await startTestApp();
    try {
      await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
      const earlier = new PageClient(t.app);
      await earlier.signIn('ada@example.com', PASSWORD);
      const first = earlier.cookies.get('snip_session');
      assert.ok(first);
      // A browser that carries that session id (planted, say) signs in: it gets a new id, and the old one ends.
      const client = new PageClient(t.app);
      await client.open('/login');
      client.cookies.set('snip_session', first);
      assert.equal(
        (await client.post('/login', { email: 'ada@example.com', password: PASSWORD })).statusCode,
        303,
      );
      const second = client.cookies.get('snip_session');
      assert.ok(second && second !== first);
      await client.learnHome();
      assert.equal((await client.get(client.at(''))).statusCode, 200);
      assert.equal((await earlier.get(earlier.at(''))).statusCode, 303);
    } finally {
      await t.close();
    }
  });
});

describe('CSRF on the signed-out forms', () => {
  it("refuses a planted cookie whose value the form repeats: the token must be Snip's signature", async () => {
    const t = await startTestApp();
    try {
      await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
      for (const [path, email] of [
        ['/signup', 'eve@example.com'],
        ['/login', 'ada@example.com'],
      ] as const) {
        const client = new PageClient(t.app);
        await client.open(path);
        // What a page able to plant cookies could send: a cookie and a field of its own choosing.
        const planted = `${'P'.repeat(43)}.${Math.floor(Date.now() / 1000)}`;
        client.cookies.set('snip_csrf', planted);
        const forged = await client.post(path, { email, password: PASSWORD, _csrf: planted });
        assert.equal(forged.statusCode, 403, path);
        // The cookie Snip issued, replayed with the token of another pre-session, fails too.
        const other = new PageClient(t.app);
        await other.open(path);
        const mixed = await client.post(path, { email, password: PASSWORD, _csrf: other.csrf });
        assert.equal(mixed.statusCode, 403, path);
        assert.equal(client.cookies.has('snip_session'), false, path);
      }
      assert.equal(await t.store.findAccountByEmail('eve@example.com'), undefined);
    } finally {
      await t.close();
    }
  });

  it('refuses sign-up and sign-in without the double-submit token, or with one that does not match', async () => {
    const t = await startTestApp();
    try {
      await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
      for (const [path, email] of [
        ['/signup', 'bob@example.com'],
        ['/login', 'ada@example.com'],
      ] as const) {
        const client = new PageClient(t.app);
        await client.open(path);
        assert.ok(client.cookies.get('snip_csrf'));
        assert.equal(
          (await client.post(path, { email, password: PASSWORD, _csrf: '' })).statusCode,
          403,
          path,
        );
        const forged = 'A'.repeat(43);
        assert.equal(
          (await client.post(path, { email, password: PASSWORD, _csrf: forged })).statusCode,
          403,
          path,
        );
        // The form's token without its cookie (another browser's page) is refused too.
        const token = client.csrf;
        client.cookies.delete('snip_csrf');
        assert.equal(
          (await client.post(path, { email, password: PASSWORD, _csrf: token })).statusCode,
          403,
          path,
        );
        assert.equal(client.cookies.has('snip_session'), false, path);
      }
      assert.equal(await t.store.findAccountByEmail('bob@example.com'), undefined);
    } finally {
      await t.close();
    }
  });

  it('refuses sign-out without the session token, keeping the session', async () => {
    const t = await startTestApp();
    try {
      await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
      const client = new PageClient(t.app);
      await client.signIn('ada@example.com', PASSWORD);
      assert.equal((await client.post('/logout', { _csrf: '' })).statusCode, 403);
      assert.equal((await client.post('/logout', { _csrf: 'x'.repeat(43) })).statusCode, 403);
      assert.equal((await client.get(client.at(''))).statusCode, 200);
    } finally {
      await t.close();
    }
  });
});

describe('public pages for a signed-in account holder', () => {
  it('shows the dashboard and sign-out in the navigation of / and /tester', async () => {
    const t = await startTestApp();
    try {
      const anonymous = new PageClient(t.app);
      for (const path of ['/', '/tester']) {
        const page = await anonymous.get(path);
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /href="\/login"/);
        assert.doesNotMatch(page.body, /action="\/logout"/);
      }
      const client = new PageClient(t.app);
      await client.signUp('nav@example.com', PASSWORD);
      for (const path of ['/', '/tester']) {
        const page = await client.get(path);
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /href="\/dashboard"/);
        assert.match(page.body, /action="\/logout"/);
        assert.match(page.body, /nav@example\.com/);
      }
    } finally {
      await t.close();
    }
  });
});
