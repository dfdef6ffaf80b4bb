import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { before, describe, it } from 'node:test';
import { MemoryWindowCounter } from '../../../src/adapters/memory/window-counter.ts';
import { openStore } from '../../../src/adapters/open-store.ts';
import { hashApiKey } from '../../../src/core/api-key.ts';
import { signInService } from '../../../src/features/workspaces/sign-in.ts';
import { cliStore, MIGRATED } from '../../fixtures/cli-harness.ts';

/** `snip plan|account|key …` (docs/api.md §6), each with --json, in order on one migrated store. */

const { env, snip, snipWith, withStore } = cliStore(MIGRATED);

describe('snip CLI', () => {
  it('plan create creates and then updates a plan', async () => {
    const created = await snip(
      'plan',
      'create',
      'team',
      '--api-access',
      '--url-quota',
      '50',
      '--rate-limit',
      '500',
      '--json',
    );
    assert.equal(created.code, 0);
    assert.deepEqual(created.json, {
      name: 'team',
      api_access: true,
      url_quota: 50,
      rate_limit_per_hour: 500,
      price: null,
      public: false,
      description: '',
      stripe_price: null,
    });
    const updated = await snip('plan', 'create', 'team', '--url-quota', '60', '--json');
    assert.deepEqual(updated.json, {
      name: 'team',
      api_access: true,
      url_quota: 60,
      rate_limit_per_hour: 500,
      price: null,
      public: false,
      description: '',
      stripe_price: null,
    });
    assert.equal((await snip('plan', 'create', 'team', '--no-api-access', '--json')).json.api_access, false);
  });

  it('account create prints the email and a working key stored only as a hash', async () => {
    const { code, json } = await snip('account', 'create', 'Ops@Example.com', '--plan', 'pro', '--json');
    assert.equal(code, 0);
    assert.equal(json.email, 'ops@example.com');
    assert.match(String(json.api_key), /^snip_[A-Za-z0-9_-]{43}$/);
    const store = await openStore(env.DATABASE_URL as string, { prepare: false });
    try {
      const owner = await store.findKeyByHash(hashApiKey(String(json.api_key)));
      assert.equal(owner?.plan.name, 'pro');
      assert.equal(owner?.revoked, false);
    } finally {
      await store.close();
    }
  });

  it('refuses a second account with the same email, an unknown plan and a bad email with exit 1', async () => {
    assert.equal((await snip('account', 'create', 'ops@example.com', '--plan', 'pro', '--json')).code, 1);
    const unknownPlan = await snip('account', 'create', 'x@example.com', '--plan', 'nope', '--json');
    assert.equal(unknownPlan.code, 1);
    assert.equal(typeof unknownPlan.json.error, 'string');
    assert.equal((await snip('account', 'create', 'not-an-email', '--plan', 'pro', '--json')).code, 1);
  });

  it('account plan assigns a plan', async () => {
    const { code, json } = await snip('account', 'plan', 'ops@example.com', 'team', '--json');
    assert.equal(code, 0);
    assert.deepEqual(json, { email: 'ops@example.com', plan: 'team' });
  });

  it('key rotate issues a new key and revokes the old one', async () => {
    const store = await openStore(env.DATABASE_URL as string, { prepare: false });
    try {
      const first = await snip('key', 'rotate', 'ops@example.com', '--json');
      const second = await snip('key', 'rotate', 'ops@example.com', '--json');
      assert.notEqual(first.json.api_key, second.json.api_key);
      assert.equal((await store.findKeyByHash(hashApiKey(String(first.json.api_key))))?.revoked, true);
      assert.equal((await store.findKeyByHash(hashApiKey(String(second.json.api_key))))?.revoked, false);
    } finally {
      await store.close();
    }
  });
});

describe('snip account password, account list, plan list', () => {
  const email = 'keys@example.com';

  before(async () => {
    assert.equal((await snip('account', 'create', email, '--plan', 'free', '--json')).code, 0);
  });

  const signIn = (password: string) =>
    withStore((store) =>
      signInService({
        store,
        counter: new MemoryWindowCounter(),
        signup: { mode: 'closed', plan: 'free', blockDisposable: true },
        limits: { perAccount: 100, perAddress: 100, windowMs: 60_000 },
      }).signIn(email, password, '192.0.2.1'),
    );

  it('sets the password read from stdin, so the account can sign in, and ends its sessions', async () => {
    const session = Buffer.alloc(32, 7);
    await withStore(async (store) => {
      const account = await store.findAccountByEmail(email);
      assert.ok(account);
      assert.equal(account.user.passwordHash, null);
      await store.createSession(session, {
        userId: account.user.id,
        csrfToken: 'csrf',
        expiresAt: new Date(Date.now() + 3_600_000),
      });
    });
    const { code, json } = await snipWith(
      { stdin: 'correct horse battery\nnot this line\n' },
      'account',
      'password',
      'Keys@Example.com',
      '--json',
    );
    assert.equal(code, 0);
    assert.deepEqual(json, { email });
    assert.equal((await signIn('correct horse battery')).email, email);
    await assert.rejects(signIn('not this line'), { code: 'sign-in-failed' });
    assert.equal(await withStore((store) => store.findSession(session, new Date())), undefined);
  });

  it('takes --password instead of stdin and replaces the hash', async () => {
    const before = await withStore(
      async (store) => (await store.findAccountByEmail(email))?.user.passwordHash,
    );
    const { code } = await snip('account', 'password', email, '--password', 'another password', '--json');
    assert.equal(code, 0);
    const after = await withStore(
      async (store) => (await store.findAccountByEmail(email))?.user.passwordHash,
    );
    assert.notEqual(after, before);
    assert.equal((await signIn('another password')).email, email);
  });

  it('refuses a short password, an empty stdin and an unknown email with exit 1', async () => {
    const short = await snipWith({ stdin: 'short\n' }, 'account', 'password', email, '--json');
    assert.deepEqual([short.code, short.json.code], [1, 'password-invalid']);
    const empty = await snipWith({ stdin: '' }, 'account', 'password', email, '--json');
    assert.deepEqual([empty.code, empty.json.code], [1, 'password-invalid']);
    const unknown = await snipWith(
      { stdin: 'long enough\n' },
      'account',
      'password',
      'no@example.com',
      '--json',
    );
    assert.deepEqual([unknown.code, unknown.json.code], [1, 'no-such-account']);
    assert.equal((await signIn('another password')).email, email);
  });

  it('reads the password from a pipe through the package bin', async () => {
    const child = execFile(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', 'bin/snip.js', 'account', 'password', email, '--json'],
      { env: { ...process.env, ...env }, timeout: 10_000 },
    );
    const output = new Promise<string>((resolve, reject) => {
      let stdout = '';
      child.stdout?.on('data', (chunk) => (stdout += chunk));
      child.on('error', reject);
      child.on('close', (status) => (status === 0 ? resolve(stdout) : reject(new Error(`exit ${status}`))));
    });
    child.stdin?.end('piped password\n');
    assert.deepEqual(JSON.parse(await output), { email });
    assert.equal((await signIn('piped password')).email, email);
  });

  it('account list prints every user with the plan and address of their personal workspace', async () => {
    const { code, json } = await snip('account', 'list', '--json');
    assert.equal(code, 0);
    const items = json.items as Record<string, unknown>[];
    const keys = items.find((item) => item.email === email);
    assert.deepEqual(Object.keys(keys ?? {}).sort(), ['created_at', 'email', 'plan', 'workspace']);
    assert.equal(keys?.plan, 'free');
    assert.match(String(keys?.workspace), /^keys-\d+$/, 'the personal workspace of the user');
    assert.match(String(keys?.created_at), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  });

  it('plan list prints every plan with its settings', async () => {
    const { code, json } = await snip('plan', 'list', '--json');
    assert.equal(code, 0);
    const pro = (json.items as Record<string, unknown>[]).find((item) => item.name === 'pro');
    assert.deepEqual(pro, {
      name: 'pro',
      api_access: true,
      url_quota: 10_000,
      rate_limit_per_hour: 1000,
      price: null,
      public: false,
      description: '',
      stripe_price: null,
    });
    const human = await snip('plan', 'list');
    assert.equal(human.out.trim().split('\n').length, (json.items as unknown[]).length);
  });
});
