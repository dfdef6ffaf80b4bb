import type { Revenue } from '../conversions.ts';
import { DAY_MS, dayText } from '../days.ts';
import type { ConversionDay, VariantConversions } from '../ports/conversion-store.ts';
import type { StatsRange } from './model.ts';

/**
 * Leads, sales and revenue beside a stats answer's clicks (docs/api.md §20): kept by UTC day only,
 * so the series is daily whatever the clicks' interval, every day of the range, empty ones as 0.
 */
export interface ConversionFigures {
  totals: { leads: number; sales: number; revenue: Revenue };
  /**
   * Leads per click and sales per lead over the range; null when there is nothing to divide by,
   * and leads per click null too when the clicks were filtered by visit and the leads were not.
   */
  rates: { leads_per_click: number | null; sales_per_lead: number | null };
  series: Array<{ day: string; leads: number; sales: number; revenue: Revenue }>;
  /**
   * Whether the figures follow every filter of the answer: false when it has a filter on the
   * visits (country, device, …, utm_*), which conversions are not kept by (docs/adr/045).
   */
  filtered: boolean;
  /** A link's answer only: its figures per A/B test variant, variants without any omitted. */
  variants?: Array<{ variant: string; leads: number; sales: number; revenue: Revenue }>;
}

export interface FigureOptions {
  /** False: the clicks were filtered by visit, the conversions could not be. */
  filtered: boolean;
  variants?: readonly VariantConversions[];
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
  options: FigureOptions = { filtered: true },
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
  const figures: ConversionFigures = {
    totals: { leads, sales, revenue },
    rates: {
      leads_per_click: options.filtered ? ratio(leads, clicks) : null,
      sales_per_lead: ratio(sales, leads),
    },
    series,
    filtered: options.filtered,
  };
  if (options.variants) {
    figures.variants = options.variants.map(({ variant, leads, sales, revenue }) => ({
      variant,
      leads,
      sales,
      revenue: { ...revenue },
    }));
  }
  return figures;
}

/** Revenue in one CSV cell: `EUR:4900 USD:100`, by currency. */
export function revenueText(revenue: Revenue): string {
  return Object.keys(revenue)
    .sort()
    .map((currency) => `${currency}:${revenue[currency]}`)
    .join(' ');
}
