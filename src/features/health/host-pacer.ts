/**
 * One request per target host per interval (docs/api.md §21): each host has its own queue, and a
 * request to it starts no sooner than the interval after the previous one to it started; other
 * hosts go on meanwhile. At most `concurrent` requests run at once over all hosts. The clock and
 * the wait are given, so tests run the pacing on a fake clock.
 */

export interface PacerClock {
  now(): number;
  /** Resolves once `ms` have passed on this clock. */
  wait(ms: number): Promise<void>;
}

export const realClock: PacerClock = {
  now: Date.now,
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()),
};

export interface PacerOptions {
  intervalMs?: number;
  concurrent?: number;
}

export function hostPacer(clock: PacerClock, options: PacerOptions = {}) {
  const intervalMs = options.intervalMs ?? 10_000;
  const concurrent = options.concurrent ?? 32;
  /** Per host: when the latest request queued for it starts (a promise, for those queued after it). */
  const tails = new Map<string, { started: Promise<number>; startedAt?: number; done?: boolean }>();
  const slots: Array<() => void> = [];
  let running = 0;
  let queued = 0;
  let stop: (error: Error) => void = () => {};
  let stopped = newStop();

  function newStop(): Promise<never> {
    const promise = new Promise<never>((_, reject) => {
      stop = reject;
    });
    promise.catch(() => {});
    return promise;
  }

  async function slot(): Promise<void> {
    if (running < concurrent) {
      running++;
      return;
    }
    await Promise.race([new Promise<void>((resolve) => slots.push(resolve)), stopped]);
  }

  function release(): void {
    const next = slots.shift();
    if (next) next();
    else running--;
  }

  /** Forgets the hosts whose last request ended with nothing behind it, and whose interval has passed. */
  function forgetIdle(): void {
    const now = clock.now();
    for (const [host, entry] of tails)
      if (entry.done && (entry.startedAt ?? 0) + intervalMs <= now) tails.delete(host);
  }

  /** Waits for the host's turn, then for a free slot; resolves with when the request starts. */
  async function turn(previous: Promise<number> | undefined): Promise<number> {
    const last = previous ? await previous.catch(() => clock.now()) : undefined;
    const wait = last === undefined ? 0 : last + intervalMs - clock.now();
    if (wait > 0) await Promise.race([clock.wait(wait), stopped]);
    await slot();
    return clock.now();
  }

  return {
    /** Runs `work` for `host` in its turn. */
    async run<T>(host: string, work: () => Promise<T>): Promise<T> {
      if (tails.size > 10_000) forgetIdle();
      const tail = tails.get(host);
      const started = turn(tail?.started);
      const entry: { started: Promise<number>; startedAt?: number; done?: boolean } = { started };
      tails.set(host, entry);
      queued++;
      let began = false;
      try {
        entry.startedAt = await started;
        began = true;
        return await work();
      } finally {
        if (began) release();
        queued--;
        entry.done = true;
      }
    },
    /** Ends every wait with an error (a shutdown): requests under way finish, waiting ones never start. */
    cancel(): void {
      stop(new Error('the checks were stopped'));
      stopped = newStop();
    },
    /** Requests waiting for their turn or under way. */
    queued: () => queued,
  };
}

export type HostPacer = ReturnType<typeof hostPacer>;
