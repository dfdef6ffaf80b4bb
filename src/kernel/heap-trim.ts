import { type Collect, v8Collect } from '../adapters/idle-collect.ts';

/**
 * Gives back the heap a server no longer uses, once it is idle (docs/adr/053). Starting leaves ~40 MB
 * of V8 heap committed that nothing lives in (module loading, the routes' registration, the first
 * flushes), and V8 keeps it: its own memory reducer did not shrink an idle server in 30 s. A
 * memory-reducing full collection (V8's "last resort" one: old space compacted, new space shrunk,
 * pooled pages released) takes it back: 176 → 138 MB of RSS on a fresh store, ~130 ms of CPU once.
 *
 * It runs only when the server is idle — no connection open, and under `idleShare` of a core since
 * the last look (every `everyMs`, the first after `firstMs`), all threads (the schedulers' polls use
 * some) — so it never pauses a server that is answering, and only when the resident memory grew by
 * `growthMb` since the last time, so an idle server pays for it once.
 */
export interface HeapTrimOptions {
  /** The server's open connections now. */
  connections: () => Promise<number>;
  everyMs?: number;
  /** The first look (1 s, or everyMs when shorter). */
  firstMs?: number;
  idleShare?: number;
  growthMb?: number;
  /** The collection (tests); V8's own by default. */
  collect?: Collect;
}

/** Starts watching; answers the function that stops it. */
export function trimHeapWhenIdle(options: HeapTrimOptions): () => void {
  const { connections, everyMs = 5_000, idleShare = 0.25, growthMb = 16 } = options;
  // The first look comes sooner: a server that starts and waits is idle at once, and its start's
  // heap is the one to give back (~35 MB).
  const firstMs = options.firstMs ?? Math.min(1_000, everyMs);
  const collect = options.collect ?? v8Collect();
  let trimmedAt = Number.NEGATIVE_INFINITY;
  let since = process.cpuUsage();
  let sinceAt = performance.now();
  const restart = () => {
    since = process.cpuUsage();
    sinceAt = performance.now();
  };
  const look = async () => {
    const used = process.cpuUsage(since);
    const busy = (used.user + used.system) / 1000 / Math.max(1, performance.now() - sinceAt);
    restart();
    if (busy > idleShare || (await connections()) > 0) return;
    if (process.memoryUsage.rss() < trimmedAt + growthMb * 1024 * 1024) return;
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    trimmedAt = process.memoryUsage.rss();
    // The collection's own CPU is not the server's load.
    restart();
  };
  const first = setTimeout(look, firstMs);
  const timer = setInterval(look, everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
