import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KeyUse } from '../../../src/core/ports/store.ts';
import { KeyUses } from '../../../src/features/workspaces/key-uses.ts';

/** Last-used times of keys: gathered in memory, written in one batch, kept when a write fails. */

describe('key uses', () => {
  it('write the latest use of each key in one batch, and nothing when there was none', async () => {
    const batches: KeyUse[][] = [];
    let now = 1000;
    const uses = new KeyUses(
      { touchKeys: async (batch) => void batches.push([...batch]) },
      { intervalMs: 60_000, now: () => now },
    );
    await uses.flush();
    assert.equal(batches.length, 0);
    uses.note(1);
    now = 2000;
    uses.note(1);
    uses.note(2);
    uses.note(0); // no key (the dashboard acting itself)
    await uses.flush();
    assert.deepEqual(batches, [
      [
        { keyId: 1, at: 2000 },
        { keyId: 2, at: 2000 },
      ],
    ]);
    await uses.close();
  });

  it('keep the uses of a failed write for the next flush, and write what is left on close', async () => {
    const batches: KeyUse[][] = [];
    let fail = true;
    const errors: unknown[] = [];
    const uses = new KeyUses(
      {
        touchKeys: async (batch) => {
          if (fail) throw new Error('store down');
          batches.push([...batch]);
        },
      },
      { intervalMs: 60_000, now: () => 5, onError: (error) => errors.push(error) },
    );
    uses.note(7);
    await uses.flush();
    assert.equal(errors.length, 1);
    fail = false;
    await uses.close();
    assert.deepEqual(batches, [[{ keyId: 7, at: 5 }]]);
  });
});
