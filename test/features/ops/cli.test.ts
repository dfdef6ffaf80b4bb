import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openStore } from '../../../src/adapters/open-store.ts';
import { cliStore } from '../../fixtures/cli-harness.ts';

/** `snip migrate` (docs/api.md §6), with --json, on a store not yet made. */

const { env, snip } = cliStore();

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
});
