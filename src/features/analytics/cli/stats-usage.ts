import { MAX_RANGE_DAYS } from '../../../core/analytics/stats.ts';
import type { CommandUsage } from '../../../terminal/command.ts';

export const STATS_FLAGS = {
  from: { type: 'string' },
  to: { type: 'string' },
  interval: { type: 'string' },
  domain: { type: 'string' },
} as const;

/** Rows of each breakdown the summary lists before `other`. */
export const SUMMARY_ROWS = 10;

export const STATS_USAGE: Readonly<Record<string, CommandUsage>> = {
  'link stats': {
    synopsis: '<short_code> [--domain HOST] [--from D] [--to D] [--interval hour|day]',
    about: 'visit stats of a live link: totals, the series and the top referrers, countries, devices…',
    details: `  --domain HOST     the domain whose code it is; the default domain without it
    --from D          the first day (YYYY-MM-DD) or an RFC 3339 date-time; by default 30 days
                      before --to
    --to D            the last day, included, or an RFC 3339 date-time; by default today (UTC)
    --interval I      day (default) or hour; hours reach back ANALYTICS_RETENTION_DAYS, days as
                      far as the link
  A range spans at most ${MAX_RANGE_DAYS} days. Unique visitors are summed per UTC day: a visitor
  id changes every day by design. Prints the totals, one line per bucket and the top ${SUMMARY_ROWS}
  of each breakdown; --json prints the answer of GET /api/v1/links/{code}/stats. A range it cannot
  read exits 2; a code no live link has is refused with 314 (exit 1).`,
    flags: ['domain', 'from', 'to', 'interval'],
    args: 1,
  },
};
