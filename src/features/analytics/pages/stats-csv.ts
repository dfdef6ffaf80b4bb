import { revenueText } from '../../../core/analytics/conversion-figures.ts';
import { DERIVED_KEYS } from '../../../core/analytics/derived-breakdowns.ts';
import { DIMENSIONS } from '../../../core/analytics/model.ts';
import { BREAKDOWN_KEYS, type StatsAnswer } from '../../../core/analytics/stats.ts';
import { csvLine } from '../../../core/csv.ts';

/**
 * The stats of a range as CSV, one table for every part:
 * `dimension,value,clicks,unique_visitors,leads,sales,revenue`. Totals first, then the series, then
 * each breakdown (bot rows count hits); the page says the same. Leads, sales and revenue (§20,
 * revenue as `EUR:4900 USD:100` in minor units) fill the total row and the daily series' rows; they
 * are kept by day, so an hourly series leaves them empty.
 */

export const STATS_CSV_COLUMNS = [
  'dimension',
  'value',
  'clicks',
  'unique_visitors',
  'leads',
  'sales',
  'revenue',
] as const;

type Cell = string | number;
const NONE: Cell[] = ['', '', ''];

export function statsCsv(answer: StatsAnswer): string {
  const { totals, conversions } = answer;
  const figures = (f: { leads: number; sales: number; revenue: Record<string, number> } | undefined) =>
    f ? [f.leads, f.sales, revenueText(f.revenue)] : NONE;
  const daily =
    answer.interval === 'day' ? new Map(conversions?.series.map((day) => [day.day, day])) : undefined;
  const lines = [
    csvLine(STATS_CSV_COLUMNS),
    csvLine(['total', 'all', totals.clicks, totals.unique_visitors, ...figures(conversions?.totals)]),
    csvLine(['total', 'bot_hits', totals.bot_hits, '', ...NONE]),
    csvLine(['total', 'qr_scans', totals.qr_scans, '', ...NONE]),
    ...answer.series.map((point) =>
      csvLine([
        'series',
        point.t,
        point.clicks,
        point.unique_visitors,
        ...figures(daily?.get(point.t.slice(0, 10))),
      ]),
    ),
    ...DIMENSIONS.flatMap((dimension) =>
      answer[BREAKDOWN_KEYS[dimension]].map((row) =>
        csvLine([dimension, row.value, row.clicks, '', ...NONE]),
      ),
    ),
    ...Object.entries(DERIVED_KEYS).flatMap(([dimension, key]) =>
      answer[key].map((row) => csvLine([dimension, row.value, row.clicks, '', ...NONE])),
    ),
  ];
  return lines.join('');
}

/** The download's file name: what and which days (the last day included). */
export function statsFileName(what: string, answer: StatsAnswer): string {
  const last = new Date(Date.parse(answer.to) - 1).toISOString().slice(0, 10);
  return `snip-stats-${what}-${answer.from.slice(0, 10)}-to-${last}.csv`;
}
