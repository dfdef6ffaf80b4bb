import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { batchedWrites } from '../../../src/adapters/postgres/batched-writes.ts';
import { openPool } from '../../../src/adapters/postgres/client.ts';
import { q, type Script } from '../../../src/adapters/sql/script.ts';

/**
 * Leads and sales written in batches on PostgreSQL (src/adapters/postgres/batched-writes.ts, docs/adr/045):
 * scripts that arrive together share a transaction, and one failing statement costs only its own script.
 */

const databaseUrl = process.env.TEST_DATABASE_URL;

describe('batched writes on PostgreSQL', {
  skip: databaseUrl ? false : 'TEST_DATABASE_URL is not set',
}, () => {
  const db = openPool(databaseUrl as string, { max: 6 });
  after(() => db.end({ timeout: 5 }));

  /** One step: the transaction it ran in and n + 1 (n = -1 divides by zero and fails). */
  function* step(n: number): Script<{ tx: string; value: number }> {
    const [row] = yield q('SELECT txid_current()::text AS tx, ?::int + 1 + 0 / (? + 1) AS value', n, n);
    return { tx: String(row?.tx), value: Number(row?.value) };
  }

  it('writes scripts sent together in fewer transactions, each answered its own rows', async () => {
    const write = batchedWrites(db);
    const answers = await Promise.all(Array.from({ length: 24 }, (_, n) => write(() => step(n))));
    assert.deepEqual(
      answers.map((answer) => answer.value),
      Array.from({ length: 24 }, (_, n) => n + 1),
    );
    assert.ok(new Set(answers.map((answer) => answer.tx)).size < 24, 'some scripts shared a transaction');
  });

  it('fails only the script whose statement failed; the others of its batch are written', async () => {
    const write = batchedWrites(db);
    const answers = await Promise.allSettled(
      Array.from({ length: 12 }, (_, n) => write(() => step(n === 7 ? -1 : n))),
    );
    assert.equal(answers.filter((answer) => answer.status === 'rejected').length, 1);
    assert.equal(answers[7]?.status, 'rejected');
    assert.deepEqual(
      answers.filter((answer) => answer.status === 'fulfilled').map((answer) => answer.value.value),
      [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12],
    );
  });
});
