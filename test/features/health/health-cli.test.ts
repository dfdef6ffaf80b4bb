import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { cliStore, FakeInspector, OPS_ON_TEAM } from '../../fixtures/cli-harness.ts';

/** `snip link check <code> [--domain]` (docs/api.md §21): the link's targets checked now, its health printed. */

const { snip, snipWith, seedLink } = cliStore(OPS_ON_TEAM);

const gone = () => new FakeInspector({ ok: false, code: '307', reason: 'target answered 404', status: 404 });

describe('snip link check', () => {
  before(async () => {
    await seedLink('ops@example.com', 'Checked', 'https://example.com/checked');
  });

  it('checks the link now and prints its health; two failures in a row make it broken', async () => {
    const inspector = gone();
    const first = await snipWith({ inspector }, 'link', 'check', 'Checked', '--json');
    assert.equal(first.code, 0, first.err);
    assert.equal(first.json.short_code, 'Checked');
    assert.deepEqual(
      { ...(first.json.health as object), checked_at: undefined },
      { state: 'unknown', code: '307', status: 404, since: null, checked_at: undefined },
    );
    assert.deepEqual(inspector.asked, ['https://example.com/checked']);
    const second = await snipWith({ inspector: gone() }, 'link', 'check', 'Checked');
    assert.equal(second.code, 0, second.err);
    assert.match(second.out, /^state: broken$/m);
  });

  it('answers 314 for a code no live link has, and 317 for a domain it does not know', async () => {
    const missing = await snip('link', 'check', 'nosuchcode', '--json');
    assert.equal(missing.code, 1);
    assert.equal(missing.json.code, '314');
    const elsewhere = await snip('link', 'check', 'Checked', '--domain', 'nowhere.example', '--json');
    assert.equal(elsewhere.json.code, '317');
  });
});
