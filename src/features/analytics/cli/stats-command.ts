import { BREAKDOWN_KEYS, parseStatsRange, type StatsAnswer, topRows } from '../../../core/analytics/stats.ts';
import { DAY_MS } from '../../../core/days.ts';
import { Refusal } from '../../../core/errors.ts';
import type { ConversionStore } from '../../../core/ports/conversion-store.ts';
import type { LinkStore, StatsStore } from '../../../core/ports/store.ts';
import { type CommandCode, InvalidRangeError, type Result } from '../../../terminal/command.ts';
import { answerWithConversions } from '../stats-answers.ts';
import { type STATS_FLAGS, SUMMARY_ROWS } from './stats-usage.ts';

/**
 * `snip link stats <code>`: the visit stats of any live link, read from the store as the API answers
 * them (docs/api.md §9.4); --json prints that very answer, otherwise a summary for people.
 */

const TITLES: Record<(typeof BREAKDOWN_KEYS)[keyof typeof BREAKDOWN_KEYS], string> = {
  referrers: 'Referrers',
  countries: 'Countries',
  devices: 'Devices',
  os: 'Operating systems',
  browsers: 'Browsers',
  languages: 'Languages',
  sources: 'Sources',
  variants: 'A/B test variants',
  bots: 'Bots (hits)',
};

/** A bucket's start as people read it: the day, or the day and hour (UTC). */
function bucket(t: string, interval: StatsAnswer['interval']): string {
  return interval === 'day' ? t.slice(0, 10) : `${t.slice(0, 10)} ${t.slice(11, 16)}`;
}

/** Label and number columns, the numbers right-aligned. */
function table(rows: ReadonlyArray<readonly [string, number]>): string[] {
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  const numberWidth = Math.max(...rows.map(([, value]) => String(value).length));
  return rows.map(
    ([label, value]) => `  ${label.padEnd(labelWidth)}  ${String(value).padStart(numberWidth)}`,
  );
}

export function statsSummary(result: Result): string {
  const answer = result as unknown as StatsAnswer;
  const last = answer.interval === 'day' ? Date.parse(answer.to) - DAY_MS : Date.parse(answer.to);
  const through =
    answer.interval === 'day' ? new Date(last).toISOString().slice(0, 10) : bucket(answer.to, 'hour');
  const lines = [
    `${bucket(answer.from, answer.interval)} to ${through} (UTC), by ${answer.interval}`,
    '',
    ...table([
      ['Clicks', answer.totals.clicks],
      ['Unique visitors (summed per day)', answer.totals.unique_visitors],
      ['Bot hits', answer.totals.bot_hits],
      ['QR scans', answer.totals.qr_scans],
    ]),
    '',
    answer.interval === 'day' ? 'Clicks per day' : 'Clicks per hour',
    ...table(answer.series.map((point) => [bucket(point.t, answer.interval), point.clicks] as const)),
  ];
  for (const key of Object.values(BREAKDOWN_KEYS)) {
    const rows = topRows(answer[key], SUMMARY_ROWS);
    lines.push('', TITLES[key]);
    lines.push(
      ...(rows.length === 0 ? ['  (none)'] : table(rows.map((row) => [row.value, row.clicks] as const))),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** What the process gives the stats command. */
export interface StatsCliDeps {
  store: LinkStore & StatsStore & ConversionStore;
  /** ANALYTICS_RETENTION_DAYS: how far back hourly stats reach. */
  retentionDays: number;
  /** The domain `--domain` names (317 for none such); the default domain without it. */
  domainOf(host: string | undefined): Promise<number>;
}

const LINK_STATS: CommandCode<typeof STATS_FLAGS, StatsCliDeps> = {
  text: statsSummary,
  run: async ({ args: [code = ''], values, store, retentionDays, domainOf }) => {
    const parsed = parseStatsRange(
      { from: values.from, to: values.to, interval: values.interval },
      { now: Date.now(), retentionDays },
    );
    if (parsed.kind === 'invalid') throw new InvalidRangeError(parsed.field, parsed.reason);
    const link = await store.findLinkByCode(await domainOf(values.domain), code);
    if (!link) throw new Refusal('314', `no live link has the code "${code}"`);
    const answer = await answerWithConversions(store, { linkId: link.id }, parsed.range);
    return answer as unknown as Result;
  },
};

export const STATS_COMMANDS = { 'link stats': LINK_STATS };
