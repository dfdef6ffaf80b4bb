import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { cliStore, OPS_ON_TEAM, passing } from '../../fixtures/cli-harness.ts';

/** `snip link edit` and `snip link create` with `--variants … --test-ends-at …` (docs/api.md §20.x), with --json. */

const { snip, snipWith, seedLink } = cliStore(OPS_ON_TEAM);

describe('snip link edit with an A/B test', () => {
  const email = 'tester@example.com';

  before(async () => {
    assert.equal((await snip('account', 'create', email, '--plan', 'pro', '--json')).code, 0);
    await seedLink(email, 'Tested', 'https://example.com/tested');
  });

  it('sets variants and an end, prints them, and ends the test with none', async () => {
    const set = await snipWith(
      { inspector: passing() },
      'link',
      'edit',
      'Tested',
      '--variants',
      'https://a.example/?x=1=30 https://b.example/=70',
      '--test-ends-at',
      '2099-01-01T00:00:00Z',
      '--json',
    );
    assert.equal(set.code, 0, set.err);
    assert.deepEqual(set.json.variants, [
      { url: 'https://a.example/?x=1', weight: 30 },
      { url: 'https://b.example/', weight: 70 },
    ]);
    assert.equal(set.json.test_ends_at, '2099-01-01T00:00:00.000Z');
    const ended = await snip('link', 'edit', 'Tested', '--variants', 'none', '--json');
    assert.equal(ended.code, 0);
    assert.deepEqual(ended.json.variants, []);
    assert.equal(ended.json.test_ends_at, null);
  });

  it('refuses weights that do not sum to 100 with 300, and pairs without a weight as usage', async () => {
    const refused = await snipWith(
      { inspector: passing() },
      'link',
      'edit',
      'Tested',
      '--variants',
      'https://a.example/=30 https://b.example/=60',
      '--json',
    );
    assert.equal(refused.code, 1);
    assert.equal(refused.json.code, '300');
    const usage = await snip('link', 'edit', 'Tested', '--variants', 'https://a.example/ https://b.example/');
    assert.equal(usage.code, 64);
  });
});

describe('snip link create', () => {
  const email = 'maker@example.com';
  let workspace = '';

  before(async () => {
    const made = await snip('account', 'create', email, '--plan', 'pro', '--json');
    assert.equal(made.code, 0, made.err);
    workspace = String(made.json.workspace);
  });

  it('creates a link with a code, title, tags and an A/B test, printed as link show prints it', async () => {
    const made = await snipWith(
      { inspector: passing() },
      'link',
      'create',
      'https://example.com/launch',
      '--workspace',
      workspace,
      '--code',
      'Launch1',
      '--title',
      'Launch',
      '--tags',
      'spring,ads',
      '--variants',
      'https://a.example/=40 https://b.example/=60',
      '--test-ends-at',
      '2099-03-01T12:00:00Z',
      '--json',
    );
    assert.equal(made.code, 0, made.err);
    assert.equal(made.json.short_code, 'Launch1');
    assert.equal(made.json.long_url, 'https://example.com/launch');
    assert.equal(made.json.title, 'Launch');
    assert.deepEqual(made.json.tags, ['ads', 'spring']);
    assert.deepEqual(made.json.variants, [
      { url: 'https://a.example/', weight: 40 },
      { url: 'https://b.example/', weight: 60 },
    ]);
    assert.equal(made.json.test_ends_at, '2099-03-01T12:00:00.000Z');
    const shown = await snip('link', 'show', 'Launch1', '--json');
    assert.deepEqual(shown.json.variants, made.json.variants);
  });

  it('refuses a taken code with 313 and a bad sum with 300, and needs --workspace', async () => {
    const taken = await snipWith(
      { inspector: passing() },
      'link',
      'create',
      'https://example.com/other',
      '--workspace',
      workspace,
      '--code',
      'Launch1',
      '--json',
    );
    assert.equal(taken.code, 1);
    assert.equal(taken.json.code, '313');
    const sum = await snipWith(
      { inspector: passing() },
      'link',
      'create',
      'https://example.com/third',
      '--workspace',
      workspace,
      '--variants',
      'https://a.example/=40 https://b.example/=50',
      '--json',
    );
    assert.equal(sum.code, 1);
    assert.equal(sum.json.code, '300');
    assert.equal((await snip('link', 'create', 'https://example.com/fourth')).code, 64);
  });
});
