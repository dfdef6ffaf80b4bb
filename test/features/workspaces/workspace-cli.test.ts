import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { openStore } from '../../../src/adapters/open-store.ts';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { SCOPES } from '../../../src/core/scopes.ts';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { cliStore, MIGRATED, passing } from '../../fixtures/cli-harness.ts';

/**
 * `snip workspace …`, `snip member …`, `snip key create` (docs/api.md §11), each with --json, on one
 * migrated store; the keys they print are tried on an app over the same store. And the section-6
 * commands that take an email, which act on that user's personal workspace only.
 */

const { env, snip } = cliStore(MIGRATED);
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const WORKSPACE_FIELDS = ['created_at', 'id', 'name', 'personal', 'plan', 'slug'];

let app: FastifyInstance;
let appStore: Store;

// Inside a suite: the file's root hooks run side by side, and cliStore's must be done first.
describe('the workspace commands', () => {
  before(async () => {
    for (const who of ['olive', 'adam', 'mia', 'vic', 'carol']) {
      const made = await snip('account', 'create', `${who}@example.com`, '--plan', 'pro', '--json');
      assert.equal(made.code, 0, made.err);
    }
    appStore = await openStore(env.DATABASE_URL as string, { prepare: true });
    app = await buildApp(loadConfig(env), { store: appStore, inspector: passing() });
  });
  after(async () => {
    await app?.close();
    await appStore?.close();
  });

  const ok = async (...argv: string[]) => {
    const run = await snip(...argv, '--json');
    assert.equal(run.code, 0, `snip ${argv.join(' ')}: ${run.err}`);
    return run.json;
  };

  describe('snip workspace create and workspace list', () => {
    it('creates a team workspace with its owner and prints it', async () => {
      const json = await ok(
        'workspace',
        'create',
        'acme',
        '--owner',
        'Olive@Example.com',
        '--name',
        'Acme Inc',
      );
      assert.deepEqual(Object.keys(json).sort(), [...WORKSPACE_FIELDS, 'owner'].sort());
      assert.equal(json.slug, 'acme');
      assert.equal(json.name, 'Acme Inc');
      assert.equal(json.plan, 'pro', "by default the plan of the owner's personal workspace");
      assert.equal(json.personal, false);
      assert.equal(json.owner, 'olive@example.com');
      assert.match(String(json.created_at), RFC3339);
      const other = await ok('workspace', 'create', 'beta', '--owner', 'adam@example.com', '--plan', 'free');
      assert.deepEqual([other.name, other.plan], ['beta', 'free'], 'named by its slug when no --name');
    });

    it('refuses a taken or malformed slug, an unknown owner or plan with exit 1', async () => {
      const refusals = [
        ['acme', '--owner', 'adam@example.com'],
        ['Bad Slug', '--owner', 'adam@example.com'],
        ['dash-', '--owner', 'adam@example.com'],
        ['under_score', '--owner', 'adam@example.com'],
        ['x'.repeat(41), '--owner', 'adam@example.com'],
        ['fresh', '--owner', 'nobody@example.com'],
        ['fresh', '--owner', 'adam@example.com', '--plan', 'no-such-plan'],
      ];
      for (const argv of refusals) {
        const run = await snip('workspace', 'create', ...argv, '--json');
        assert.equal(run.code, 1, argv.join(' '));
        assert.equal(typeof run.json.error, 'string');
      }
      const { items } = await ok('workspace', 'list');
      const slugs = (items as { slug: string }[]).map((w) => w.slug);
      assert.ok(!slugs.includes('fresh'));
      assert.equal(slugs.filter((slug) => slug === 'acme').length, 1);
    });

    it('answers a missing --owner or slug with a usage error (64)', async () => {
      assert.equal((await snip('workspace', 'create', 'nobody-owns', '--json')).code, 64);
      assert.equal((await snip('workspace', 'create', '--owner', 'adam@example.com', '--json')).code, 64);
    });

    it('lists personal and team workspaces', async () => {
      const { items } = await ok('workspace', 'list');
      const list = items as Record<string, unknown>[];
      for (const item of list) assert.deepEqual(Object.keys(item).sort(), WORKSPACE_FIELDS);
      const acme = list.find((w) => w.slug === 'acme');
      assert.deepEqual([acme?.name, acme?.personal], ['Acme Inc', false]);
      const personal = list.filter((w) => w.personal === true);
      assert.ok(personal.length >= 5, 'one personal workspace per user');
      const human = await snip('workspace', 'list');
      assert.equal(human.code, 0);
      assert.equal(human.out.trim().split('\n').length, list.length);
    });
  });

  describe('snip member add and member remove', () => {
    it('adds existing users with a role and prints the membership', async () => {
      for (const [who, role] of [
        ['adam', 'admin'],
        ['mia', 'member'],
        ['vic', 'viewer'],
      ]) {
        const json = await ok('member', 'add', 'acme', `${who}@example.com`, '--role', String(role));
        assert.deepEqual(Object.keys(json).sort(), ['email', 'joined_at', 'role', 'workspace']);
        assert.deepEqual([json.workspace, json.email, json.role], ['acme', `${who}@example.com`, role]);
      }
    });

    it('refuses a member twice, an unknown user or workspace with exit 1; a missing --role is a usage error', async () => {
      const refused = [
        ['acme', 'mia@example.com', '--role', 'viewer'],
        ['acme', 'nobody@example.com', '--role', 'viewer'],
        ['no-such-ws', 'carol@example.com', '--role', 'viewer'],
      ];
      for (const argv of refused) assert.equal((await snip('member', 'add', ...argv, '--json')).code, 1);
      const badRole = await snip('member', 'add', 'acme', 'carol@example.com', '--role', 'boss', '--json');
      assert.ok([1, 64].includes(badRole.code), `exit ${badRole.code}`);
      assert.equal((await snip('member', 'add', 'acme', 'carol@example.com', '--json')).code, 64);
      const members = await callApi(app, 'GET', '/members', { key: await keyOf('acme', 'adam@example.com') });
      assert.ok(!(members.body.items as { email: string }[]).some((m) => m.email === 'carol@example.com'));
    });

    it('removes a member, whose keys stop working; never the last owner (exit 1)', async () => {
      await ok('member', 'add', 'acme', 'carol@example.com', '--role', 'admin');
      const key = await keyOf('acme', 'carol@example.com');
      assert.equal((await callApi(app, 'GET', '/members', { key })).status, 200);
      const json = await ok('member', 'remove', 'acme', 'Carol@Example.com');
      assert.deepEqual(json, { workspace: 'acme', email: 'carol@example.com' });
      assertProblem(await callApi(app, 'GET', '/links', { key }), 401, '303');
      assert.equal((await snip('member', 'remove', 'acme', 'carol@example.com', '--json')).code, 1);
      const last = await snip('member', 'remove', 'acme', 'olive@example.com', '--json');
      assert.equal(last.code, 1);
      assert.equal(last.json.code, '319');
      const members = await callApi(app, 'GET', '/members', {
        key: await keyOf('acme', 'olive@example.com'),
      });
      assert.ok((members.body.items as { email: string }[]).some((m) => m.email === 'olive@example.com'));
    });
  });

  async function keyOf(workspace: string, by: string, ...more: string[]): Promise<string> {
    return String((await ok('key', 'create', workspace, '--by', by, ...more)).api_key);
  }

  describe('snip key create', () => {
    it("prints a key with every scope of the maker's role by default, which works on /api/v1", async () => {
      const json = await ok('key', 'create', 'acme', '--by', 'adam@example.com', '--name', 'deploy');
      assert.deepEqual([json.workspace, json.by, json.name], ['acme', 'adam@example.com', 'deploy']);
      assert.deepEqual([...(json.scopes as string[])].sort(), [...SCOPES].sort());
      assert.match(String(json.api_key), /^snip_[A-Za-z0-9_-]{43}$/);
      const key = String(json.api_key);
      const workspace = await callApi(app, 'GET', '/workspace', { key });
      assert.equal(workspace.status, 200);
      assert.deepEqual(
        [workspace.body.slug, workspace.body.role, workspace.body.personal],
        ['acme', 'admin', false],
      );
      assert.equal((await callApi(app, 'GET', '/members', { key })).status, 200);
      const made = await callApi(app, 'POST', '/links', {
        key,
        body: { url: 'https://example.com/cli-key' },
      });
      assert.equal(made.status, 201);
    });

    it('gives a key only the --scopes asked for', async () => {
      const key = await keyOf('acme', 'olive@example.com', '--scopes', 'links:read,stats:read');
      assert.equal((await callApi(app, 'GET', '/links', { key })).status, 200);
      assert.equal((await callApi(app, 'GET', '/stats', { key })).status, 200);
      const body = { url: 'https://example.com/read-only' };
      assertProblem(await callApi(app, 'POST', '/links', { key, body }), 403, '315');
      assertProblem(await callApi(app, 'GET', '/members', { key }), 403, '315');
    });

    it('refuses a member, a viewer or a non-member as maker, and a scope wider than the role, with exit 1', async () => {
      const refused = [
        ['--by', 'mia@example.com'],
        ['--by', 'vic@example.com'],
        ['--by', 'mia@example.com', '--scopes', 'links:read'],
        ['--by', 'mia@example.com', '--scopes', 'members:read'],
        ['--by', 'vic@example.com', '--scopes', 'links:create'],
        ['--by', 'carol@example.com'],
      ];
      for (const argv of refused) {
        const run = await snip('key', 'create', 'acme', ...argv, '--json');
        assert.equal(run.code, 1, argv.join(' '));
        assert.equal(run.json.api_key, undefined);
      }
      assert.equal(
        (await snip('key', 'create', 'no-such-ws', '--by', 'olive@example.com', '--json')).code,
        1,
      );
    });

    it('answers a scope that does not exist, no scope and a missing --by with a usage error (64)', async () => {
      for (const scopes of ['links:nuke', 'links:read,links:nuke', '', ' , ']) {
        const by = ['--by', 'adam@example.com', '--scopes', scopes];
        const run = await snip('key', 'create', 'acme', ...by, '--json');
        assert.equal(run.code, 64, `--scopes "${scopes}"`);
        assert.equal(run.json.api_key, undefined);
      }
      assert.equal((await snip('key', 'create', 'acme', '--json')).code, 64);
    });
  });

  const NEW_COMMANDS = ['workspace create', 'workspace list', 'member add', 'member remove', 'key create'];

  describe('snip --help for the workspace commands', () => {
    for (const command of NEW_COMMANDS) {
      it(`answers "snip ${command} --help" with its own usage and exit 0`, async () => {
        const { code, out } = await snip(...command.split(' '), '--help');
        assert.equal(code, 0);
        assert.ok(out.startsWith(`usage: snip ${command}`), out);
      });
    }

    it('names every workspace command in the global usage', async () => {
      const { out } = await snip('--help');
      for (const command of NEW_COMMANDS) assert.ok(out.includes(`snip ${command}`), command);
    });
  });

  describe('the section-6 commands on a user who is also in a team', () => {
    const email = 'dora@example.com';
    let personalKey = '';
    let teamKey = '';
    let dir = '';
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'snip-ws-cli-'));
      personalKey = String((await ok('account', 'create', email, '--plan', 'pro')).api_key);
      await ok('workspace', 'create', 'dora-team', '--owner', email);
      teamKey = await keyOf('dora-team', email);
      const team = await callApi(app, 'POST', '/links', {
        key: teamKey,
        body: { url: 'https://example.com/team' },
      });
      assert.equal(team.status, 201);
      const mine = await callApi(app, 'POST', '/links', {
        key: personalKey,
        body: { url: 'https://example.com/mine' },
      });
      assert.equal(mine.status, 201);
    });
    after(() => rm(dir, { recursive: true, force: true }));

    const urls = async (key: string) =>
      ((await callApi(app, 'GET', '/links', { key })).body.items as { long_url: string }[]).map(
        (l) => l.long_url,
      );

    it('link list lists the personal workspace only', async () => {
      const { items } = await ok('link', 'list', email);
      assert.deepEqual(
        (items as { long_url: string }[]).map((l) => l.long_url),
        ['https://example.com/mine'],
      );
    });

    it('group create and link import act on the personal workspace only', async () => {
      const group = await ok('group', 'create', email, 'Personal Group');
      assert.equal(group.api_id, 'personal-group');
      const file = join(dir, 'links.csv');
      await writeFile(file, 'url\nhttps://example.com/imported\n');
      const imported = await ok('link', 'import', email, file, '--no-inspect');
      assert.equal(imported.imported, 1);
      const groupsOf = async (key: string) =>
        ((await callApi(app, 'GET', '/groups', { key })).body.items as { api_id: string }[]).map(
          (g) => g.api_id,
        );
      assert.deepEqual(await groupsOf(personalKey), ['personal-group']);
      assert.deepEqual(await groupsOf(teamKey), []);
      assert.deepEqual((await urls(personalKey)).sort(), [
        'https://example.com/imported',
        'https://example.com/mine',
      ]);
      assert.deepEqual(await urls(teamKey), ['https://example.com/team']);
    });

    it("key rotate replaces the personal workspace's key and leaves the team's keys alone", async () => {
      const rotated = String((await ok('key', 'rotate', email)).api_key);
      assertProblem(await callApi(app, 'GET', '/workspace', { key: personalKey }), 401, '303');
      const personal = await callApi(app, 'GET', '/workspace', { key: rotated });
      assert.deepEqual([personal.body.personal, personal.body.email], [true, email]);
      assert.equal((await callApi(app, 'GET', '/workspace', { key: teamKey })).body.slug, 'dora-team');
    });
  });
});
