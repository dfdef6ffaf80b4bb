import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { openStore } from '../../../src/adapters/open-store.ts';
import { cliStore, FakeInspector, OPS_ON_TEAM, passing } from '../../fixtures/cli-harness.ts';

/** `snip link show|list|edit|rename|delete` (docs/api.md §6, §18), each with --json. */

const { env, snip, snipWith, withStore, seedLink } = cliStore(OPS_ON_TEAM);

describe('snip CLI', () => {
  it('link show prints the link with clicks and bot_hits', async () => {
    const store = await openStore(env.DATABASE_URL as string, { prepare: false });
    try {
      const account = await store.findAccountByEmail('ops@example.com');
      assert.ok(account);
      const inserted = await store.insertLinkWithinQuota({
        code: 'CliShow',
        domainId: 0,
        workspaceId: account.workspace.id,
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

  it('turns public stats on and off, and refuses both flags at once', async () => {
    assert.equal((await show('Holder')).public_stats, false);
    const on = await snip('link', 'edit', 'Holder', '--public-stats', '--json');
    assert.equal(on.code, 0);
    assert.equal(on.json.public_stats, true);
    const off = await snip('link', 'edit', 'Holder', '--no-public-stats', '--json');
    assert.equal(off.json.public_stats, false);
    assert.notEqual((await snip('link', 'edit', 'Holder', '--public-stats', '--no-public-stats')).code, 0);
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
    assert.equal(await withStore((store) => store.isCodeIssued(0, 'Doomed')), true);
  });
});

// Empty when unset: the suite below is then skipped.
const redisUrl = process.env.TEST_REDIS_URL ?? '';

describe('snip link rename', () => {
  const email = 'renamer@example.com';

  before(async () => {
    assert.equal((await snip('account', 'create', email, '--plan', 'pro', '--json')).code, 0);
    await seedLink(email, 'OldName', 'https://example.com/rename');
    await seedLink(email, 'TakenName', 'https://example.com/taken');
  });

  it('gives the link a new code, keeps the old one as its alias and prints both', async () => {
    const { code, json } = await snip('link', 'rename', 'OldName', 'NewName', '--json');
    assert.equal(code, 0);
    assert.equal(json.short_code, 'NewName');
    assert.equal(json.short_url, 'https://sn.ip/NewName');
    assert.deepEqual(json.aliases, ['OldName']);
    assert.deepEqual((await snip('link', 'show', 'NewName', '--json')).json.aliases, ['OldName']);
    assert.equal((await snip('link', 'show', 'OldName', '--json')).code, 1);
    const alias = await withStore((store) => store.findLinkByAlias(0, 'OldName'));
    assert.equal(alias?.code, 'NewName');
  });

  it('refuses a taken or aliased code with 313 and a bad shape with 300, exit 1', async () => {
    const taken = await snip('link', 'rename', 'NewName', 'TakenName', '--json');
    assert.deepEqual([taken.code, taken.json.code], [1, '313']);
    const other = await snip('link', 'rename', 'TakenName', 'OldName', '--json');
    assert.deepEqual([other.code, other.json.code], [1, '313']);
    const shape = await snip('link', 'rename', 'NewName', 'no way', '--json');
    assert.deepEqual([shape.code, shape.json.code], [1, '300']);
    const unknown = await snip('link', 'rename', 'NoSuchCode', 'Whatever', '--json');
    assert.deepEqual([unknown.code, unknown.json.code], [1, '314']);
    assert.equal((await snip('link', 'rename', 'NewName')).code, 64);
  });
});

describe('snip link edit with REDIS_URL', { skip: redisUrl ? false : 'TEST_REDIS_URL is not set' }, () => {
  it('announces the change to running servers on their channel', { timeout: 10_000 }, async () => {
    const { connectRedis } = await import('../../../src/adapters/redis/connect.ts');
    const { RedisLinkEvents } = await import('../../../src/adapters/redis/link-events.ts');
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

  it('announces both codes of a rename: servers drop the old code and the new one', {
    timeout: 10_000,
  }, async () => {
    const { connectRedis } = await import('../../../src/adapters/redis/connect.ts');
    const { RedisLinkEvents } = await import('../../../src/adapters/redis/link-events.ts');
    const prefix = `snip-cli-rename-${process.pid}-${Date.now()}:`;
    const server = await connectRedis(redisUrl, prefix);
    const events = await RedisLinkEvents.open(server.client, server.subscriber, prefix);
    const heard: string[] = [];
    const both = new Promise<void>((resolve) =>
      events.onChanged((key) => {
        heard.push(key);
        if (heard.length === 2) resolve();
      }),
    );
    try {
      assert.equal(
        (await snip('account', 'create', 'rename@example.com', '--plan', 'pro', '--json')).code,
        0,
      );
      await seedLink('rename@example.com', 'HeardOld', 'https://example.com/heard');
      const redisEnv = { REDIS_URL: redisUrl, REDIS_PREFIX: prefix };
      const renamed = await snipWith({ env: redisEnv }, 'link', 'rename', 'HeardOld', 'HeardNew', '--json');
      assert.equal(renamed.code, 0);
      await both;
      assert.deepEqual([...heard].sort(), ['HeardNew', 'HeardOld']);
    } finally {
      await events.close();
      await server.close();
    }
  });
});
