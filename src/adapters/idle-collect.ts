import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's memory-reducing full collection (its "last resort" one: old space compacted, new space
 * shrunk, pooled pages released), for a thread that is idle (docs/adr/053). V8 collects an isolate
 * as it allocates: one that stops allocating keeps whatever heap it last grew to, garbage and all.
 */
export type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** V8's collector, made visible to a fresh context only: the thread's own global scope gets no `gc`. */
export function v8Collect(): Collect {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as Collect;
}

/**
 * Once `idleMs` passed since the last `busy()`, one collection: the first time, then whenever the
 * thread's heap grew by `growthMb` since the last. A worker thread gives back what a burst (clicks
 * written, pages read) grew, once; an idle one pays nothing, since nothing calls `busy()`.
 */
export function collectWhenIdle(
  idleMs: number,
  growthMb = 16,
  collect: Collect = v8Collect(),
): { busy: () => void } {
  let collectedAt = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  const heap = () => getHeapStatistics().total_heap_size;
  const idle = () => {
    if (heap() < collectedAt + growthMb * 1024 * 1024) return;
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    collectedAt = heap();
  };
  return {
    busy() {
      clearTimeout(timer);
      timer = setTimeout(idle, idleMs);
      timer.unref();
    },
  };
}
