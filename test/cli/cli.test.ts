import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { MemoryWindowCounter } from '../../src/adapters/memory/window-counter.ts';
import { openStore } from '../../src/adapters/open-store.ts';
import { hashApiKey } from '../../src/core/api-key.ts';
import type { Store } from '../../src/core/ports/store.ts';
import { urlHash } from '../../src/core/target-url.ts';
import { signInService } from '../../src/features/accounts/sign-in.ts';
import { FakeInspector, type RunOptions, runSnip, withStoreAt } from './cli-harness.ts';

/** The operator commands of docs/api.md §6, each with --json. */

let dir: string;
let env: Record<string, string>;

/** Runs one command in this process; `stdin` is what the command reads from standard input. */
const snipWith = (options: RunOptions, ...argv: string[]) => runSnip(env, options, argv);
const snip = (...argv: string[]) => snipWith({}, ...argv);

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'snip-cli-'));
  env = { DATABASE_URL: `sqlite:${join(dir, 'snip.db')}`, BASE_URL: 'https://sn.ip' };
});
after(() => rm(dir, { recursive: true, force: true }));

describe('snip CLI', () => {
  it('migrate creates the store and the default plans', async () => {
    const { code, json } = await snip('migrate', '--json');
    assert.equal(code, 0);
    assert.ok(Array.isArray(json.applied) && json.applied.length > 0);
    assert.deepEqual(json.plans, ['free', 'pro']);
    const store = await openStore(env.DATABASE_URL as string, { prepare: false });
    try {
      const free = await store.findPlanByName('free');
      const pro = await store.findPlanByName('pro');
      assert.deepEqual([free?.apiAccess, free?.urlQuota], [false, 100]);
      assert.deepEqual([pro?.apiAccess, pro?.urlQuota, pro?.rateLimitPerHour], [true, 10_000, 1000]);
    } finally {
      await store.close();
    }
    assert.deepEqual((await snip('migrate', '--json')).json.applied, []);
  });

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
    });
    const updated = await snip('plan', 'create', 'team', '--url-quota', '60', '--json');
    assert.deepEqual(updated.json, {
      name: 'team',
      api_access: true,
      url_quota: 60,
      rate_limit_per_hour: 500,
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

  it('group create prints the numeric ID and API identifier', async () => {
    const derived = await snip('group', 'create', 'ops@example.com', 'Spring Sale', '--json');
    assert.equal(derived.code, 0);
    assert.equal(typeof derived.json.id, 'number');
    assert.equal(derived.json.api_id, 'spring-sale');
    const chosen = await snip('group', 'create', 'ops@example.com', 'Other', '--api-id', 'promo-1', '--json');
    assert.equal(chosen.json.api_id, 'promo-1');
    assert.equal(
      (await snip('group', 'create', 'ops@example.com', 'Again', '--api-id', 'promo-1', '--json')).code,
      1,
    );
    assert.equal(
      (await snip('group', 'create', 'ops@example.com', 'Digits', '--api-id', '123', '--json')).code,
      1,
    );
  });

  it('link show prints the link with clicks and bot_hits', async () => {
    const store = await openStore(env.DATABASE_URL as string, { prepare: false });
    try {
      const account = await store.findAccountByEmail('ops@example.com');
      assert.ok(account);
      const inserted = await store.insertLinkWithinQuota({
        code: 'CliShow',
        accountId: account.id,
        groupId: null,
        longUrl: 'https://example.com/cli',
        normalizedUrl: 'https://example.com/cli',
        urlHash: 'c'.repeat(64),
        title: 'CLI',
      });
      assert.equal(inserted.kind, 'created');
      if (inserted.kind === 'created') {
        await store.addClicks([{ linkId: inserted.link.id, day: '2026-11-22', clicks: 3, botHits: 2 }]);
      }
    } finally {
      await store.close();
    }
    const { code, json } = await snip('link', 'show', 'CliShow', '--json');
    assert.equal(code, 0);
    assert.equal(json.short_code, 'CliShow');
    assert.equal(json.long_url, 'https://example.com/cli');
    assert.equal(json.clicks, 3);
    assert.equal(json.bot_hits, 2);
    assert.equal((await snip('link', 'show', 'Missing', '--json')).code, 1);
  });

  it('answers a usage error with exit 64', async () => {
    assert.equal((await snip('frobnicate', '--json')).code, 64);
    assert.equal((await snip('plan', 'create', '--json')).code, 64);
    assert.equal((await snip('plan', 'create', 'x', '--url-quota', 'many', '--json')).code, 64);
    assert.equal((await snip('account', 'create', 'a@b.co', '--json')).code, 64);
    assert.equal((await snip('link', 'show', 'x', '--bogus')).code, 64);
  });

  it('runs as `npx snip` through the package bin', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', 'bin/snip.js', 'plan', 'create', 'bin-plan', '--json'],
      {
        env: { ...process.env, ...env },
      },
    );
    assert.equal(JSON.parse(stdout).name, 'bin-plan');
  });
});

const passing = () =>
  new FakeInspector({ ok: true, title: 'T', finalUrl: 'https://example.org/', status: 200 });

const withStore = <T>(use: (store: Store) => Promise<T>) => withStoreAt(env.DATABASE_URL as string, use);

/** Stores a link of the account directly, as the API would have made it. */
async function seedLink(
  email: string,
  code: string,
  url: string,
  extra: { title?: string; groupId?: number | null; tags?: string[] } = {},
): Promise<void> {
  await withStore(async (store) => {
    const account = await store.findAccountByEmail(email);
    assert.ok(account, `no account ${email}`);
    const inserted = await store.insertLinkWithinQuota({
      code,
      accountId: account.id,
      groupId: extra.groupId ?? null,
      longUrl: url,
      normalizedUrl: url,
      urlHash: urlHash(url),
      title: extra.title ?? '',
      tags: extra.tags,
    });
    assert.equal(inserted.kind, 'created');
  });
}

const COMMANDS = [
  'serve',
  'migrate',
  'plan create',
  'plan list',
  'account create',
  'account plan',
  'account password',
  'account list',
  'key rotate',
  'group create',
  'link show',
  'link list',
  'link edit',
  'link delete',
];

describe('snip --help', () => {
  for (const command of COMMANDS) {
    it(`answers "snip ${command} --help" and -h with its own usage and exit 0`, async () => {
      for (const flag of ['--help', '-h']) {
        const { code, out } = await snip(...command.split(' '), flag);
        assert.equal(code, 0);
        assert.ok(out.startsWith(`usage: snip ${command}`), out);
        assert.ok(!out.includes('usage: snip <command>'), 'the global usage instead of its own');
      }
    });
  }

  it('prints the global usage, naming every command, for snip --help', async () => {
    const { code, out } = await snip('--help');
    assert.equal(code, 0);
    assert.ok(out.startsWith('usage: snip <command>'));
    for (const command of COMMANDS) assert.ok(out.includes(`snip ${command}`), command);
  });

  it('lists the commands of a group for snip link --help', async () => {
    const { code, out } = await snip('link', '--help');
    assert.equal(code, 0);
    for (const command of ['link show', 'link list', 'link edit', 'link delete']) {
      assert.ok(out.includes(`snip ${command}`), command);
    }
    assert.ok(!out.includes('snip plan create'));
  });

  it('says in link edit --help when running servers see the change', async () => {
    assert.match((await snip('link', 'edit', '--help')).out, /LINK_CACHE_TTL_SECONDS/);
  });

  it('shows serve --help through the package bin without starting a server', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', 'bin/snip.js', 'serve', '--help'],
      { env: { ...process.env, ...env }, timeout: 10_000 },
    );
    assert.ok(stdout.startsWith('usage: snip serve'), stdout);
  });

  it("prints the command's own usage to stderr with a usage error, exit 64", async () => {
    const missing = await snip('link', 'list', '--json');
    assert.equal(missing.code, 64);
    assert.equal(typeof missing.json.error, 'string');
    assert.ok(missing.err.includes('usage: snip link list'), missing.err);
    const stray = await snip('link', 'show', 'abc', '--url', 'https://example.com/');
    assert.equal(stray.code, 64);
    assert.ok(stray.err.includes('usage: snip link show'), stray.err);
    const unparsable = await snip('account', 'password', 'a@b.co', '--frobnicate');
    assert.equal(unparsable.code, 64);
    assert.ok(unparsable.err.includes('usage: snip account password'), unparsable.err);
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
        signup: { open: false, plan: 'free' },
        limits: { perAccount: 100, perAddress: 100, windowMs: 60_000 },
      }).signIn(email, password, '192.0.2.1'),
    );

  it('sets the password read from stdin, so the account can sign in, and ends its sessions', async () => {
    const session = Buffer.alloc(32, 7);
    await withStore(async (store) => {
      const account = await store.findAccountByEmail(email);
      assert.ok(account);
      assert.equal(account.passwordHash, null);
      await store.createSession(session, {
        accountId: account.id,
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
    const before = await withStore(async (store) => (await store.findAccountByEmail(email))?.passwordHash);
    const { code } = await snip('account', 'password', email, '--password', 'another password', '--json');
    assert.equal(code, 0);
    const after = await withStore(async (store) => (await store.findAccountByEmail(email))?.passwordHash);
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

  it('account list prints every account with its plan and creation time', async () => {
    const { code, json } = await snip('account', 'list', '--json');
    assert.equal(code, 0);
    const items = json.items as Record<string, unknown>[];
    const keys = items.find((item) => item.email === email);
    assert.deepEqual(Object.keys(keys ?? {}).sort(), ['created_at', 'email', 'plan']);
    assert.equal(keys?.plan, 'free');
    assert.match(String(keys?.created_at), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  });

  it('plan list prints every plan with its settings', async () => {
    const { code, json } = await snip('plan', 'list', '--json');
    assert.equal(code, 0);
    const pro = (json.items as Record<string, unknown>[]).find((item) => item.name === 'pro');
    assert.deepEqual(pro, { name: 'pro', api_access: true, url_quota: 10_000, rate_limit_per_hour: 1000 });
    const human = await snip('plan', 'list');
    assert.equal(human.out.trim().split('\n').length, (json.items as unknown[]).length);
  });
});

describe('snip link list', () => {
  const email = 'lister@example.com';
  let groupId: number;

  before(async () => {
    assert.equal((await snip('account', 'create', email, '--plan', 'pro', '--json')).code, 0);
    groupId = Number((await snip('group', 'create', email, 'Promo', '--json')).json.id);
    await seedLink(email, 'ListOne', 'https://example.com/1', { title: 'One' });
    await seedLink(email, 'ListTwo', 'https://example.com/2', { groupId, tags: ['b', 'a'] });
    await seedLink(email, 'ListThree', 'https://example.com/3', { groupId });
  });

  it('prints the links newest first with their fields', async () => {
    const { code, json } = await snip('link', 'list', email, '--json');
    assert.equal(code, 0);
    const items = json.items as Record<string, unknown>[];
    assert.deepEqual(
      items.map((item) => item.short_code),
      ['ListThree', 'ListTwo', 'ListOne'],
    );
    const two = items[1] ?? {};
    assert.equal(two.short_url, 'https://sn.ip/ListTwo');
    assert.equal(two.long_url, 'https://example.com/2');
    assert.equal(two.group, 'promo');
    assert.deepEqual(two.tags, ['a', 'b']);
    assert.deepEqual([two.clicks, two.bot_hits], [0, 0]);
    assert.equal(items[2]?.title, 'One');
    assert.equal(items[2]?.group, null);
    for (const field of ['created_at', 'updated_at']) {
      assert.match(String(two[field]), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    }
  });

  it('keeps to --limit and --group (numeric ID or API identifier)', async () => {
    const codes = async (...flags: string[]) =>
      ((await snip('link', 'list', email, ...flags, '--json')).json.items as { short_code: string }[]).map(
        (item) => item.short_code,
      );
    assert.deepEqual(await codes('--limit', '2'), ['ListThree', 'ListTwo']);
    assert.deepEqual(await codes('--group', 'promo'), ['ListThree', 'ListTwo']);
    assert.deepEqual(await codes('--group', String(groupId), '--limit', '1'), ['ListThree']);
  });

  it('prints one line per link for people', async () => {
    const { code, out } = await snip('link', 'list', email);
    assert.equal(code, 0);
    const lines = out.trim().split('\n');
    assert.equal(lines.length, 3);
    assert.ok(lines[0]?.startsWith('ListThree\t'));
  });

  it('refuses an unknown group with 312 and an unknown email, exit 1', async () => {
    const group = await snip('link', 'list', email, '--group', 'nope', '--json');
    assert.deepEqual([group.code, group.json.code], [1, '312']);
    const other = await snip('link', 'list', 'nobody@example.com', '--json');
    assert.deepEqual([other.code, other.json.code], [1, 'no-such-account']);
  });

  it('answers a --limit outside 1-1000 or not a number with a usage error', async () => {
    for (const limit of ['0', '1001', 'many', '-1', '2.5']) {
      const { code, err } = await snip('link', 'list', email, '--limit', limit);
      assert.equal(code, 64, limit);
      assert.ok(err.includes('usage: snip link list'));
    }
    assert.equal((await snip('link', 'list', email, '--limit', '1000', '--json')).code, 0);
  });
});

describe('snip link edit and link delete', () => {
  const email = 'editor@example.com';

  before(async () => {
    assert.equal((await snip('account', 'create', email, '--plan', 'pro', '--json')).code, 0);
    assert.equal((await snip('group', 'create', email, 'Launch', '--json')).code, 0);
    await seedLink(email, 'EditMe', 'https://example.com/edit', { title: 'Before' });
    await seedLink(email, 'Holder', 'https://example.com/held');
    await seedLink(email, 'Doomed', 'https://example.com/doomed');
  });

  const show = async (code: string) => (await snip('link', 'show', code, '--json')).json;

  it('changes the title, tags and group and prints the link', async () => {
    const inspector = passing();
    const { code, json } = await snipWith(
      { inspector },
      'link',
      'edit',
      'EditMe',
      '--title',
      'After',
      '--tags',
      'spring, sale',
      '--group',
      'launch',
      '--json',
    );
    assert.equal(code, 0);
    assert.equal(json.short_code, 'EditMe');
    assert.equal(json.short_url, 'https://sn.ip/EditMe');
    assert.equal(json.title, 'After');
    assert.deepEqual(json.tags, ['sale', 'spring']);
    assert.equal(json.group, 'launch');
    assert.equal(json.long_url, 'https://example.com/edit');
    assert.deepEqual(inspector.asked, [], 'nothing to fetch without a new url');
    const ungrouped = await snip('link', 'edit', 'EditMe', '--no-group', '--tags', '', '--json');
    assert.equal(ungrouped.json.group, null);
    assert.deepEqual(ungrouped.json.tags, []);
  });

  it('changes the target after inspecting it once', async () => {
    const inspector = passing();
    const { code, json } = await snipWith(
      { inspector },
      'link',
      'edit',
      'EditMe',
      '--url',
      'https://example.org/new',
      '--json',
    );
    assert.equal(code, 0);
    assert.equal(json.long_url, 'https://example.org/new');
    assert.deepEqual(inspector.asked, ['https://example.org/new']);
    assert.equal((await show('EditMe')).long_url, 'https://example.org/new');
  });

  it('refuses a social network with 310 and leaves the link unchanged', async () => {
    const before = await show('EditMe');
    // No inspector injected: a refusal before inspection fetches nothing.
    const { code, json, err } = await snip(
      'link',
      'edit',
      'EditMe',
      '--url',
      'https://facebook.com/x',
      '--json',
    );
    assert.deepEqual([code, json.code], [1, '310']);
    assert.equal(typeof json.error, 'string');
    assert.match(err, /\[310\]/);
    assert.deepEqual(await show('EditMe'), before);
  });

  it("refuses another link's target with 305 naming it, without inspecting", async () => {
    const inspector = passing();
    const { code, json } = await snipWith(
      { inspector },
      'link',
      'edit',
      'EditMe',
      '--url',
      'https://example.com/held',
      '--json',
    );
    assert.deepEqual([code, json.code, json.existing_code], [1, '305', 'Holder']);
    assert.deepEqual(inspector.asked, []);
  });

  it('reports an inspection failure with its code', async () => {
    const inspector = new FakeInspector({ ok: false, code: '307', reason: 'the page answers 404' });
    const { code, json } = await snipWith(
      { inspector },
      'link',
      'edit',
      'EditMe',
      '--url',
      'https://example.org/gone',
      '--json',
    );
    assert.deepEqual([code, json.code], [1, '307']);
    assert.equal((await show('EditMe')).long_url, 'https://example.org/new');
  });

  it('refuses an unknown group with 312, and link rules of a wrong shape with 300', async () => {
    const group = await snip('link', 'edit', 'EditMe', '--group', 'nope', '--json');
    assert.deepEqual([group.code, group.json.code], [1, '312']);
    const past = await snip('link', 'edit', 'EditMe', '--expires-at', '2001-01-01T00:00:00Z', '--json');
    assert.deepEqual([past.code, past.json.code], [1, '300']);
    const zero = await snip('link', 'edit', 'EditMe', '--max-clicks', '0', '--json');
    assert.deepEqual([zero.code, zero.json.code], [1, '300']);
    const device = JSON.stringify([{ if: { device: 'fridge' }, url: 'https://example.org/x' }]);
    const rule = await snip('link', 'edit', 'EditMe', '--rules', device, '--json');
    assert.deepEqual([rule.code, rule.json.code], [1, '300']);
    assert.equal((await snip('link', 'edit', 'EditMe', '--rules', '{"if": {}}')).code, 64);
    assert.equal((await snip('link', 'edit', 'EditMe', '--password', 'a', '--no-password')).code, 64);
  });

  it('sets and clears expiry, visit limit, password and rules, and shows them', async () => {
    const rules = [{ if: { device: 'ios', country: 'de' }, url: 'https://example.org/ios' }];
    const set = await snipWith(
      { inspector: passing() },

      'link',
      'edit',
      'EditMe',
      '--expires-at',
      '2099-01-01T00:00:00Z',
      '--max-clicks',
      '5',
      '--password',
      'open sesame',
      '--rules',
      JSON.stringify(rules),
      '--json',
    );
    assert.equal(set.code, 0);
    assert.deepEqual(
      [set.json.expires_at, set.json.max_clicks, set.json.has_password, set.json.rules],
      [
        '2099-01-01T00:00:00.000Z',
        5,
        true,
        [{ if: { device: 'ios', country: 'DE' }, url: 'https://example.org/ios' }],
      ],
    );
    assert.equal(JSON.stringify(set.json).includes('open sesame'), false);
    const cleared = await snip(
      'link',
      'edit',
      'EditMe',
      '--expires-at',
      'none',
      '--max-clicks',
      'none',
      '--no-password',
      '--rules',
      'none',
      '--json',
    );
    assert.equal(cleared.code, 0);
    assert.deepEqual(
      [cleared.json.expires_at, cleared.json.max_clicks, cleared.json.has_password, cleared.json.rules],
      [null, null, false, []],
    );
  });

  it('answers an unknown code with 314, exit 1', async () => {
    const { code, json } = await snip('link', 'edit', 'NoSuchCode', '--title', 'x', '--json');
    assert.deepEqual([code, json.code], [1, '314']);
    const gone = await snip('link', 'delete', 'NoSuchCode', '--json');
    assert.deepEqual([gone.code, gone.json.code], [1, '314']);
  });

  it('answers an edit without a change, or with --group and --no-group, with a usage error', async () => {
    assert.equal((await snip('link', 'edit', 'EditMe')).code, 64);
    assert.equal((await snip('link', 'edit', 'EditMe', '--group', 'launch', '--no-group')).code, 64);
    assert.equal((await snip('link', 'edit', 'EditMe', '--max-clicks', 'lots')).code, 64);
  });

  it('deletes a link for good: gone everywhere, its code never issued again', async () => {
    const { code, json } = await snip('link', 'delete', 'Doomed', '--json');
    assert.equal(code, 0);
    assert.deepEqual(json, { short_code: 'Doomed' });
    assert.equal((await snip('link', 'show', 'Doomed', '--json')).code, 1);
    const edit = await snip('link', 'edit', 'Doomed', '--title', 'back', '--json');
    assert.deepEqual([edit.code, edit.json.code], [1, '314']);
    const again = await snip('link', 'delete', 'Doomed', '--json');
    assert.deepEqual([again.code, again.json.code], [1, '314']);
    const listed = (await snip('link', 'list', email, '--json')).json.items as { short_code: string }[];
    assert.ok(!listed.some((item) => item.short_code === 'Doomed'));
    assert.equal(await withStore((store) => store.isCodeIssued('Doomed')), true);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe('snip link edit with REDIS_URL', () => {
  if (!redisUrl) {
    it('announces changes through Redis', { skip: 'TEST_REDIS_URL is not set' }, () => {});
    return;
  }

  it('announces the change to running servers on their channel', { timeout: 10_000 }, async () => {
    const { connectRedis } = await import('../../src/adapters/redis/connect.ts');
    const { RedisLinkEvents } = await import('../../src/adapters/redis/link-events.ts');
    const prefix = `snip-cli-test-${process.pid}-${Date.now()}:`;
    const server = await connectRedis(redisUrl, prefix);
    const events = await RedisLinkEvents.open(server.client, server.subscriber, prefix);
    // What a running server hears: the next code announced on its channel.
    const nextAnnounced = () => new Promise<string>((resolve) => events.onChanged(resolve));
    try {
      assert.equal((await snip('account', 'create', 'redis@example.com', '--plan', 'pro', '--json')).code, 0);
      await seedLink('redis@example.com', 'Announced', 'https://example.com/announced');
      const redisEnv = { REDIS_URL: redisUrl, REDIS_PREFIX: prefix };
      const edit = nextAnnounced();
      const edited = await snipWith(
        { env: redisEnv },
        'link',
        'edit',
        'Announced',
        '--title',
        'New',
        '--json',
      );
      assert.equal(edited.code, 0);
      assert.equal(await edit, 'Announced');
      const removal = nextAnnounced();
      assert.equal((await snipWith({ env: redisEnv }, 'link', 'delete', 'Announced', '--json')).code, 0);
      assert.equal(await removal, 'Announced');
    } finally {
      await events.close();
      await server.close();
    }
  });
});
