import { DAY_MS } from '../../../core/days.ts';
import type { StatsStore } from '../../../core/ports/store.ts';

/** How often old events are looked for; every instance sweeps, a repeat deletes nothing. */
const EVERY_MS = 3_600_000;
/** The first sweep waits a little, so a starting instance serves first. */
const FIRST_AFTER_MS = 60_000;

export interface RetentionOptions {
  retentionDays: number;
  now: () => number;
  onError: (error: unknown) => void;
}

/**
 * Deletes raw click events older than ANALYTICS_RETENTION_DAYS (whole UTC days) once an hour;
 * the per-day aggregates they were counted into stay as long as the link (docs/api.md §9.2).
 */
export function retentionSweep(store: Pick<StatsStore, 'purgeEvents'>, options: RetentionOptions) {
  const sweep = async (): Promise<number> => {
    const now = options.now();
    const before = now - (now % DAY_MS) - options.retentionDays * DAY_MS;
    try {
      return await store.purgeEvents(before, now);
    } catch (error) {
      options.onError(error);
      return 0;
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  return {
    /** Sweeps now; how many events went. */
    sweep,
    /** Sweeps hourly from a minute on; a server starts it once it listens. */
    start() {
      if (stopped || timer) return;
      timer = setTimeout(function again() {
        void sweep();
        timer = setTimeout(again, EVERY_MS);
        timer.unref();
      }, FIRST_AFTER_MS);
      timer.unref();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
