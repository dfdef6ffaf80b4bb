import {
  EVENT_FILTERS,
  FILTERS,
  type FilterName,
  parseStatsFilters,
  UTM_FILTERS,
} from '../../../core/analytics/stats-filters.ts';
import type { StatsReport } from '../visit-stats.ts';

/**
 * The stats page's own address as it stands — range, interval, zone, comparison and filters — and
 * the addresses of the same page with one thing changed: a filter added (a breakdown's row) or
 * taken off (a chip), the comparison turned on or off, the CSV of the same figures.
 */

export interface StatsAddress {
  /** The page with these fields changed (undefined: taken off), as a path and query. */
  href(change: Partial<Record<string, string | undefined>>, path?: string): string;
  /** The filters in force, in the order the page lists them. */
  readonly filters: ReadonlyArray<readonly [FilterName, string]>;
  /** The page narrowed to `value`; undefined when that value cannot be a filter, or already is. */
  drill(name: FilterName, value: string): string | undefined;
}

const RANGE_FIELDS = ['from', 'to', 'interval'] as const;

/**
 * `path` is the page's; `fixed` are fields every address keeps (a link's `domain`, which names the
 * link there, not a filter). A refused query shows the default figures: its addresses start afresh.
 */
export function statsAddress(
  report: StatsReport,
  path: string,
  fixed: Record<string, string>,
  ofWorkspace: boolean,
): StatsAddress {
  const allowed: readonly FilterName[] = ofWorkspace ? FILTERS : [...EVENT_FILTERS, ...UTM_FILTERS];
  const state: Record<string, string> = {};
  if (!report.refused) {
    for (const name of RANGE_FIELDS) if (report.query[name]) state[name] = report.query[name];
    for (const [name, value] of Object.entries(report.query.more)) {
      if (name === 'tz' || name === 'compare' || allowed.includes(name as FilterName)) state[name] = value;
    }
  }
  const filters = allowed.flatMap((name) =>
    state[name] === undefined ? [] : [[name, state[name]] as const],
  );

  const href = (change: Partial<Record<string, string | undefined>>, to = path) => {
    const fields = { ...state, ...change };
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) if (value !== undefined) query.set(name, value);
    for (const [name, value] of Object.entries(fixed)) query.set(name, value);
    const text = query.toString();
    return text === '' ? to : `${to}?${text}`;
  };

  return {
    href,
    filters,
    drill(name, value) {
      if (!allowed.includes(name)) return undefined;
      const parsed = parseStatsFilters({ [name]: value }, [name]);
      if (parsed.kind !== 'ok') return undefined;
      const current =
        state[name] === undefined ? undefined : parseStatsFilters({ [name]: state[name] }, [name]);
      if (current?.kind === 'ok' && current.filters[name] === parsed.filters[name]) return undefined;
      return href({ [name]: value });
    },
  };
}
