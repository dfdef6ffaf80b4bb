/**
 * One request per target host per interval (docs/api.md §21): each host has its own queue, and a
 * request to it starts no sooner than the interval after the one before it; other hosts go on
 * meanwhile. The clock and the wait are given, so tests run the pacing on a fake clock.
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

export function hostPacer(clock: PacerClock, intervalMs = 10_000) {
  /** Per host: when its next request may start; hosts with nothing waiting are dropped. */
  const next = new Map<string, number>();
  const waiting = new Map<string, number>();
  let queued = 0;
  let cancel: (error: Error) => void = () => {};
  let cancelled = new Promise<never>((_, reject) => {
    cancel = reject;
  });
  cancelled.catch(() => {});

  return {
    /** Runs `work` for `host` in its turn. */
    async run<T>(host: string, work: () => Promise<T>): Promise<T> {
      const now = clock.now();
      if (next.size > 10_000)
        for (const [one, at] of next) if (at <= now && !waiting.has(one)) next.delete(one);
      const slot = Math.max(now, next.get(host) ?? now);
      next.set(host, slot + intervalMs);
      waiting.set(host, (waiting.get(host) ?? 0) + 1);
      queued++;
      try {
        if (slot > now) await Promise.race([clock.wait(slot - now), cancelled]);
        return await work();
      } finally {
        queued--;
        const left = (waiting.get(host) ?? 1) - 1;
        if (left > 0) waiting.set(host, left);
        else {
          waiting.delete(host);
          // Forget a host once its interval has passed with nothing queued for it.
          if ((next.get(host) ?? 0) <= clock.now()) next.delete(host);
        }
      }
    },
    /** Ends every wait with an error (a shutdown): requests under way finish, waiting ones never start. */
    cancel(): void {
      cancel(new Error('the checks were stopped'));
      cancelled = new Promise<never>((_, reject) => {
        cancel = reject;
      });
      cancelled.catch(() => {});
    },
    /** Requests waiting for their turn or under way. */
    queued: () => queued,
    /** How long a new request to `host` would wait now. */
    delayOf: (host: string) => Math.max(0, (next.get(host) ?? 0) - clock.now()),
  };
}

export type HostPacer = ReturnType<typeof hostPacer>;
