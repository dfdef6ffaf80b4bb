/**
 * Scripts written together on PostgreSQL (docs/adr/045): the leads and sales that arrive while a
 * batch is being written wait for the next one, which runs them all in one transaction, side by
 * side, so postgres.js pipelines their statements (a round trip per step of the batch rather than
 * per statement of each script) and one commit covers them. They touch no row in common but an
 * invoice or lead sent twice, which the scripts' ON CONFLICT already settles within a transaction.
 */
import { UnavailableError } from '../../core/errors.ts';
import type { Script } from '../sql/script.ts';
import { type Db, transaction } from './client.ts';
import { runIn } from './run-script.ts';

/** Scripts per transaction at most. */
const BATCH = 64;
/** Batches written at once: more connections of the pool, never all of them. */
const LANES = 4;

interface Job {
  make: () => Script<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** `write(make)`: the script `make()` builds, written in the next batch; `make` may run twice. */
export function batchedWrites(db: Db) {
  const queue: Job[] = [];
  let lanes = 0;

  const alone = (job: Job) => transaction(db, (tx) => runIn(tx, job.make())).then(job.resolve, job.reject);

  async function lane(): Promise<void> {
    lanes++;
    try {
      for (let batch = queue.splice(0, BATCH); batch.length > 0; batch = queue.splice(0, BATCH)) {
        if (batch.length === 1) {
          await alone(batch[0] as Job);
          continue;
        }
        try {
          const results = await transaction(db, (tx) =>
            Promise.all(batch.map((job) => runIn(tx, job.make()))),
          );
          for (const [i, job] of batch.entries()) job.resolve(results[i]);
        } catch (error) {
          // Unreachable or too late: whether it committed is unknown, so nothing runs again.
          if (error instanceof UnavailableError) for (const job of batch) job.reject(error);
          // A statement failed and rolled the batch back: each script runs again on its own.
          else await Promise.all(batch.map(alone));
        }
      }
    } finally {
      lanes--;
    }
  }

  return function write<T>(make: () => Script<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push({ make, resolve: resolve as (value: unknown) => void, reject });
      if (lanes < LANES) void lane();
    });
  };
}
