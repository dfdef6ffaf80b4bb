import type { Revenue } from '../conversions.ts';
import { DAY_MS, dayText } from '../days.ts';
import type { ConversionDay } from '../ports/conversion-store.ts';
import type { StatsRange } from './model.ts';

/**
 * Leads, sales and revenue beside a stats answer's clicks (docs/api.md §20): kept by UTC day only,
 * so the series is daily whatever the clicks' interval, every day of the range, empty ones as 0.
 */
export interface ConversionFigures {
  totals: { leads: number; sales: number; revenue: Revenue };
  /** Leads per click and sales per lead over the range; null when there is nothing to divide by. */
  rates: { leads_per_click: number | null; sales_per_lead: number | null };
  series: Array<{ day: string; leads: number; sales: number; revenue: Revenue }>;
}

/** The first and last UTC day a range touches. */
export function rangeDays(range: Pick<StatsRange, 'from' | 'to'>): { fromDay: string; toDay: string } {
  return {
    fromDay: dayText(Math.floor(range.from / DAY_MS)),
    toDay: dayText(Math.floor((Math.max(range.to, range.from + 1) - 1) / DAY_MS)),
  };
}

const ratio = (part: number, whole: number) =>
  whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null;

export function conversionFigures(
  days: readonly ConversionDay[],
  range: Pick<StatsRange, 'from' | 'to'>,
  clicks: number,
): ConversionFigures {
  const byDay = new Map(days.map((day) => [day.day, day]));
  const revenue: Record<string, number> = {};
  let leads = 0;
  let sales = 0;
  const series: ConversionFigures['series'] = [];
  const first = Math.floor(range.from / DAY_MS);
  const last = Math.floor((Math.max(range.to, range.from + 1) - 1) / DAY_MS);
  for (let n = first; n <= last; n++) {
    const day = dayText(n);
    const figures = byDay.get(day);
    series.push({
      day,
      leads: figures?.leads ?? 0,
      sales: figures?.sales ?? 0,
      revenue: { ...figures?.revenue },
    });
    if (!figures) continue;
    leads += figures.leads;
    sales += figures.sales;
    for (const [currency, amount] of Object.entries(figures.revenue)) {
      revenue[currency] = (revenue[currency] ?? 0) + amount;
    }
  }
  return {
    totals: { leads, sales, revenue },
    rates: { leads_per_click: ratio(leads, clicks), sales_per_lead: ratio(sales, leads) },
    series,
  };
}

/** Revenue in one CSV cell: `EUR:4900 USD:100`, by currency. */
export function revenueText(revenue: Revenue): string {
  return Object.keys(revenue)
    .sort()
    .map((currency) => `${currency}:${revenue[currency]}`)
    .join(' ');
}
