import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cliStore, MIGRATED } from '../../fixtures/cli-harness.ts';

/**
 * `snip plan create|list` with what a plan is sold as, and `snip workspace plan` (docs/api.md §6,
 * §17), each with --json, in order on one migrated store: prices in minor units of an ISO 4217
 * currency, listed or not, a description and a Stripe price; bad values are usage errors (exit 64)
 * that change nothing.
 */

const { snip, withStore } = cliStore(MIGRATED);

const PLAN_FIELDS = [
  'api_access',
  'description',
  'name',
  'price',
  'public',
  'rate_limit_per_hour',
  'stripe_price',
  'url_quota',
];

async function ok(...argv: string[]) {
  const run = await snip(...argv, '--json');
  assert.equal(run.code, 0, `snip ${argv.join(' ')}: ${run.err}`);
  return run.json;
}

async function planNamed(name: string) {
  const { items } = await ok('plan', 'list');
  return (items as Record<string, unknown>[]).find((item) => item.name === name);
}

describe('snip plan create with a price', () => {
  it('creates a public, priced plan sold through Stripe, the currency upper case', async () => {
    const json = await ok(
      'plan',
      'create',
      'gold',
      '--api-access',
      '--url-quota',
      '5000',
      '--price',
      '900',
      '--currency',
      'eur',
      '--public',
      '--description',
      '  Five thousand links and the API.  ',
      '--stripe-price',
      'price_1Gold',
    );
    assert.deepEqual(json, {
      name: 'gold',
      api_access: true,
      url_quota: 5000,
      rate_limit_per_hour: 1000,
      price: { amount: 900, currency: 'EUR' },
      public: true,
      description: 'Five thousand links and the API.',
      stripe_price: 'price_1Gold',
    });
  });

  it('keeps what an update does not name, and changes what it does', async () => {
    const kept = await ok('plan', 'create', 'gold', '--url-quota', '6000');
    assert.deepEqual(kept.price, { amount: 900, currency: 'EUR' });
    assert.deepEqual([kept.public, kept.stripe_price, kept.api_access], [true, 'price_1Gold', true]);
    const changed = await ok('plan', 'create', 'gold', '--price', '1200', '--currency', 'USD', '--no-public');
    assert.deepEqual(changed.price, { amount: 1200, currency: 'USD' });
    assert.equal(changed.public, false);
    assert.equal(changed.url_quota, 6000);
    const cleared = await ok('plan', 'create', 'gold', '--description', '', '--stripe-price', 'none');
    assert.deepEqual([cleared.description, cleared.stripe_price], ['', null]);
  });

  it('takes a currency without decimals as it is: 500 JPY', async () => {
    const json = await ok('plan', 'create', 'yen', '--price', '500', '--currency', 'jpy');
    assert.deepEqual(json.price, { amount: 500, currency: 'JPY' });
  });

  it('makes a plan free with --free or --price 0, which also stops selling it through Stripe', async () => {
    await ok('plan', 'create', 'silver', '--price', '500', '--currency', 'GBP', '--stripe-price', 'price_s');
    const free = await ok('plan', 'create', 'silver', '--free');
    assert.deepEqual([free.price, free.stripe_price], [null, null]);
    await ok('plan', 'create', 'silver', '--price', '500', '--currency', 'GBP');
    assert.equal((await ok('plan', 'create', 'silver', '--price', '0')).price, null);
  });

  it('starts a new plan free, unlisted, without description or Stripe price', async () => {
    const json = await ok('plan', 'create', 'plain');
    assert.deepEqual(Object.keys(json).sort(), PLAN_FIELDS);
    assert.deepEqual(
      [json.price, json.public, json.description, json.stripe_price, json.api_access],
      [null, false, '', null, false],
    );
  });

  const refused: Array<[string, string[]]> = [
    ['a negative price', ['--price=-5', '--currency', 'EUR']],
    ['a negative price as a separate word', ['--price', '-5', '--currency', 'EUR']],
    ['a fractional price', ['--price', '9.50', '--currency', 'EUR']],
    ['a price that is no number', ['--price', 'nine', '--currency', 'EUR']],
    ['a price without a currency', ['--price', '900']],
    ['a currency without a price', ['--currency', 'EUR']],
    ['an unknown currency', ['--price', '900', '--currency', 'XYZ']],
    ['a currency that is no code', ['--price', '900', '--currency', 'EURO']],
    ['an empty currency', ['--price', '900', '--currency', '']],
    ['--free with a price', ['--free', '--price', '900', '--currency', 'EUR']],
    ['a Stripe id that is no price', ['--stripe-price', 'prod_123']],
    ['a description of two lines', ['--description', 'one\ntwo']],
    ['a description too long', ['--description', 'x'.repeat(501)]],
  ];
  it('refuses bad prices, currencies, Stripe prices and descriptions with exit 64, changing nothing', async () => {
    const before = (await ok('plan', 'list')).items;
    for (const [what, words] of refused) {
      const run = await snip('plan', 'create', 'gold', ...words, '--json');
      assert.equal(run.code, 64, `${what}: ${run.err}`);
      assert.equal(typeof run.json.error, 'string', what);
    }
    for (const [what, words] of refused.slice(0, 3)) {
      assert.equal((await snip('plan', 'create', 'never', ...words, '--json')).code, 64, what);
    }
    assert.deepEqual((await ok('plan', 'list')).items, before, 'no plan changed or was made');
  });
});

describe('snip plan list', () => {
  it('prints every plan with its price, listing, description and Stripe price', async () => {
    const { items } = await ok('plan', 'list');
    const all = items as Record<string, unknown>[];
    for (const item of all) assert.deepEqual(Object.keys(item).sort(), PLAN_FIELDS);
    const free = all.find((item) => item.name === 'free');
    assert.deepEqual([free?.price, free?.public, free?.stripe_price], [null, false, null]);
    assert.deepEqual(all.find((item) => item.name === 'gold')?.price, { amount: 1200, currency: 'USD' });
    const human = await snip('plan', 'list');
    assert.equal(human.code, 0);
    const lines = human.out.trim().split('\n');
    assert.equal(lines.length, all.length);
    assert.deepEqual(
      lines
        .find((line) => line.startsWith('gold\t'))
        ?.split('\t')
        .slice(1, 3),
      ['1200 USD', 'unlisted'],
    );
  });
});

describe('snip workspace plan', () => {
  it('puts a workspace on a plan and records it in the audit log once', async () => {
    const made = await ok('account', 'create', 'wendy@example.com', '--plan', 'free');
    const slug = String(made.workspace);
    assert.deepEqual(await ok('workspace', 'plan', slug, 'gold'), {
      workspace: slug,
      plan: 'gold',
      previous_plan: 'free',
    });
    await ok('workspace', 'plan', slug, 'gold'); // the same plan: nothing to record
    await withStore(async (store) => {
      const workspace = await store.findWorkspaceBySlug(slug);
      assert.equal(workspace?.plan.name, 'gold');
      assert.deepEqual(workspace?.plan.price, { amount: 1200, currency: 'USD' });
      const log = await store.listAudit({ workspaceId: workspace?.id ?? 0, limit: 10 });
      assert.deepEqual(
        log.map((entry) => [entry.actor, entry.action, entry.target, entry.before, entry.after]),
        [['cli', 'workspace.plan', slug, { plan: 'free' }, { plan: 'gold' }]],
      );
    });
  });

  it('puts a team workspace on a plan too', async () => {
    await ok('workspace', 'create', 'acme', '--owner', 'wendy@example.com', '--plan', 'free');
    const json = await ok('workspace', 'plan', 'ACME', 'yen');
    assert.deepEqual([json.workspace, json.plan], ['acme', 'yen']);
  });

  it('refuses an unknown workspace or plan with exit 1, and missing words with exit 64', async () => {
    const noWorkspace = await snip('workspace', 'plan', 'nowhere', 'gold', '--json');
    assert.deepEqual([noWorkspace.code, noWorkspace.json.code], [1, 'no-such-workspace']);
    const noPlan = await snip('workspace', 'plan', 'acme', 'platinum', '--json');
    assert.deepEqual([noPlan.code, noPlan.json.code], [1, 'no-such-plan']);
    assert.equal((await planNamed('platinum')) === undefined, true);
    assert.equal((await snip('workspace', 'plan', 'acme', '--json')).code, 64);
    await withStore(async (store) => {
      assert.equal((await store.findWorkspaceBySlug('acme'))?.plan.name, 'yen');
    });
  });
});
