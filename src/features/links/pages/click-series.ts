import { DAY_MS } from '../../../core/days.ts';
import type { DailyClicks } from '../../../core/entities.ts';

/** A chart's series: one point per UTC day, days without clicks as 0 (the store omits them). */
export interface ClickSeries {
  /** UTC days, YYYY-MM-DD, oldest first. */
  days: string[];
  clicks: number[];
}

/** The `length` UTC days ending with the day of `nowMs`, oldest first. */
export function lastDays(nowMs: number, length: number): string[] {
  const today = nowMs - (nowMs % DAY_MS);
  return Array.from({ length }, (_, i) =>
    new Date(today - (length - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

export function clickSeries(days: readonly string[], rows: readonly DailyClicks[]): ClickSeries {
  const byDay = new Map(rows.map((row) => [row.day, row.clicks]));
  return { days: [...days], clicks: days.map((day) => byDay.get(day) ?? 0) };
}
