import { DERIVED_KEYS } from '../../../core/analytics/derived-breakdowns.ts';
import { DIMENSIONS } from '../../../core/analytics/model.ts';
import { BREAKDOWN_KEYS, type StatsAnswer } from '../../../core/analytics/stats.ts';
import { csvLine } from '../../../core/csv.ts';

/**
 * The stats of a range as CSV, one table for every part: `dimension,value,clicks,unique_visitors`.
 * Totals first, then the series, then each breakdown (bot rows count hits); the page says the same.
 */

export const STATS_CSV_COLUMNS = ['dimension', 'value', 'clicks', 'unique_visitors'] as const;

export function statsCsv(answer: StatsAnswer): string {
  const { totals } = answer;
  const lines = [
    csvLine(STATS_CSV_COLUMNS),
    csvLine(['total', 'all', totals.clicks, totals.unique_visitors]),
    csvLine(['total', 'bot_hits', totals.bot_hits, '']),
    csvLine(['total', 'qr_scans', totals.qr_scans, '']),
    ...answer.series.map((point) => csvLine(['series', point.t, point.clicks, point.unique_visitors])),
    ...DIMENSIONS.flatMap((dimension) =>
      answer[BREAKDOWN_KEYS[dimension]].map((row) => csvLine([dimension, row.value, row.clicks, ''])),
    ),
    ...Object.entries(DERIVED_KEYS).flatMap(([dimension, key]) =>
      answer[key].map((row) => csvLine([dimension, row.value, row.clicks, ''])),
    ),
  ];
  return lines.join('');
}

/** The download's file name: what and which days (the last day included). */
export function statsFileName(what: string, answer: StatsAnswer): string {
  const last = new Date(Date.parse(answer.to) - 1).toISOString().slice(0, 10);
  return `snip-stats-${what}-${answer.from.slice(0, 10)}-to-${last}.csv`;
}
