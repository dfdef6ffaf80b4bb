import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { openStore } from '../../src/adapters/open-store.ts';
import { runCli } from '../../src/cli.ts';
import { loadConfig } from '../../src/config.ts';
import { hashApiKey } from '../../src/core/api-key.ts';

/** The operator commands of docs/api.md §6, each with --json. */

let dir: string;
let env: Record<string, string>;

async function snip(
  ...argv: string[]
): Promise<{ code: number; json: Record<string, unknown>; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, loadConfig(env), {
    out: { write: (text: string) => (out += text) },
    err: { write: (text: string) => (err += text) },
  });
  return { code, json: out.trim() ? JSON.parse(out) : {}, err };
}

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
