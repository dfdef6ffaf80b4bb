import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { cliStore, MIGRATED } from '../fixtures/cli-harness.ts';

/** The command line as a whole (docs/api.md §6): usage errors, --help for every command, the package bin. */

const { env, snip } = cliStore(MIGRATED);

describe('snip CLI', () => {
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
