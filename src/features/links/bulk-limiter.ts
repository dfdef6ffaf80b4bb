/**
 * How many items of one bulk request run at once (docs/api.md §16): at most `total` in all and at
 * most `perHost` for one target host, so a hundred links to one site never fetch it a hundred
 * times at once. Waiting tasks start in the order they asked, as far as the bounds let them: a
 * task for a host already at its bound lets a later one for another host go first.
 */

export interface SlotLimits {
  total: number;
  perHost: number;
}

/** Items in flight at once in one bulk request, and per target host among them. */
export const BULK_SLOTS: SlotLimits = { total: 8, perHost: 2 };

export interface HostSlots {
  /** Runs `task` once a slot is free (and one of `host`'s, when it names one); frees it when settled. */
  run<T>(host: string | undefined, task: () => Promise<T>): Promise<T>;
}

interface Waiting {
  host: string | undefined;
  start: () => void;
}

export function hostSlots(limits: SlotLimits): HostSlots {
  let running = 0;
  const perHost = new Map<string, number>();
  const waiting: Waiting[] = [];

  const fits = (host: string | undefined) =>
    running < limits.total && (host === undefined || (perHost.get(host) ?? 0) < limits.perHost);

  function take(host: string | undefined): void {
    running++;
    if (host !== undefined) perHost.set(host, (perHost.get(host) ?? 0) + 1);
  }

  function give(host: string | undefined): void {
    running--;
    if (host !== undefined) {
      const left = (perHost.get(host) ?? 1) - 1;
      if (left === 0) perHost.delete(host);
      else perHost.set(host, left);
    }
    // Every waiting task that fits now starts, the oldest first.
    for (let i = 0; i < waiting.length && running < limits.total; ) {
      const next = waiting[i] as Waiting;
      if (fits(next.host)) {
        waiting.splice(i, 1);
        take(next.host);
        next.start();
      } else i++;
    }
  }

  return {
    async run(host, task) {
      // Whatever waits does not fit (each free slot starts what fits at once), so one that fits
      // now overtakes nobody it could have let go first.
      if (fits(host)) take(host);
      else await new Promise<void>((start) => waiting.push({ host, start }));
      try {
        return await task();
      } finally {
        give(host);
      }
    },
  };
}
