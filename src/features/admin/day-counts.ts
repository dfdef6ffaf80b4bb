import type { DayCount } from '../../core/ports/console-store.ts';

/**
 * A count per UTC day over the last days whose past days are read once a day: a day that has ended
 * keeps its count (links are counted made that day, deleted since or not; users are never removed,
 * only emptied), so each page reads today's alone. The first page of a day reads the whole range.
 */
export function dayCounts(read: (fromDay: number) => Promise<DayCount[]>) {
  let past: { today: number; fromDay: number; counts: DayCount[] } | undefined;
  return async (fromDay: number, today: number): Promise<DayCount[]> => {
    if (past?.today !== today || past.fromDay !== fromDay) {
      const all = await read(fromDay);
      past = { today, fromDay, counts: all.filter(({ day }) => day < today) };
      return all;
    }
    return [...past.counts, ...(await read(today))];
  };
}
