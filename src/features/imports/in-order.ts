/**
 * Work on a sequence, `limit` items at a time, its results handed on in the sequence's order: an
 * import fetches several targets at once yet reports its rows line by line.
 */

/** The work on one item failed: nothing after `done` items was handed on, and nothing more was started. */
export class StoppedAt extends Error {
  override name = 'StoppedAt';
  /** Items handed on, in order, before the one that failed. */
  readonly done: number;

  constructor(done: number, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.done = done;
  }
}

interface Slot<T, R> {
  item: T;
  settled: boolean;
  result?: R;
  failed?: { error: unknown };
}

/**
 * Runs `work` on every item, at most `limit` at once, and calls `take` with each result in the
 * items' order. When a work fails, no new item starts; those running are waited for; the results
 * before the failed one are taken; then StoppedAt is thrown.
 */
export async function inOrder<T, R>(
  items: Iterable<T>,
  limit: number,
  work: (item: T) => Promise<R>,
  take: (item: T, result: R) => void,
): Promise<void> {
  const source = items[Symbol.iterator]();
  const slots = new Map<number, Slot<T, R>>();
  let started = 0;
  let taken = 0;
  let running = 0;
  let exhausted = false;
  let failed = false;

  const takeReady = () => {
    for (let slot = slots.get(taken); slot?.settled && !slot.failed; slot = slots.get(taken)) {
      slots.delete(taken);
      taken += 1;
      take(slot.item, slot.result as R);
    }
  };

  await new Promise<void>((resolve, reject) => {
    const finish = () => {
      if (running === 0 && (exhausted || failed)) resolve();
    };
    const pump = () => {
      try {
        while (!failed && !exhausted && running < limit) {
          const next = source.next();
          if (next.done) {
            exhausted = true;
            break;
          }
          const slot: Slot<T, R> = { item: next.value, settled: false };
          slots.set(started, slot);
          started += 1;
          running += 1;
          work(next.value)
            .then(
              (result) => {
                slot.result = result;
              },
              (error: unknown) => {
                slot.failed = { error };
                failed = true;
              },
            )
            .finally(() => {
              slot.settled = true;
              running -= 1;
              try {
                takeReady();
              } catch (error) {
                failed = true;
                reject(error);
                return;
              }
              pump();
            });
        }
        finish();
      } catch (error) {
        failed = true;
        reject(error);
      }
    };
    pump();
  });

  // Every work has settled and the results were taken up to the first that failed.
  const stopped = slots.get(taken)?.failed;
  if (stopped) throw new StoppedAt(taken, stopped.error);
}
