import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cliStore, OPS_ON_TEAM } from '../../fixtures/cli-harness.ts';

/** `snip group create` (docs/api.md §6), with --json, for an account made by `snip account create`. */

const { snip } = cliStore(OPS_ON_TEAM);

describe('snip CLI', () => {
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
});
