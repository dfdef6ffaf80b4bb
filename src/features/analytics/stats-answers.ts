import { conversionFigures, rangeDays } from '../../core/analytics/conversion-figures.ts';
import { type EventFilter, keepsAll, type StatsRange, type StatsScope } from '../../core/analytics/model.ts';
import { parseStatsRange, rfc3339, type StatsAnswer, statsAnswer } from '../../core/analytics/stats.ts';
import {
  EVENT_FILTERS,
  eventFilterOf,
  FILTERS,
  parseStatsFilters,
  UTM_FILTERS,
} from '../../core/analytics/stats-filters.ts';
import { dayStartIn, isUtc, localDay } from '../../core/analytics/stats-zone.ts';
import { DAY_MS } from '../../core/days.ts';
import { Refusal } from '../../core/errors.ts';
import type { ConversionStore } from '../../core/ports/conversion-store.ts';
import type { GroupStore, StatsStore } from '../../core/ports/store.ts';
import { isTimeZone, zoneOrUtc } from '../../core/time-zone.ts';
import type { AddressedDomain } from '../domains/index.ts';
import { groupOrRefuse } from '../groups/index.ts';

/**
 * One stats answer (docs/api.md §9.4, §19) for the API, the pages and their CSV: the range in the
 * zone asked for (`tz`, else the workspace's), the filters, and `compare=previous`. Unfiltered UTC
 * days come from the daily aggregates; a filter or a zone's days read the raw events, so such an
 * answer covers only the retained part of its range and says from when (`retained_from`) — except
 * an unfiltered zoned range reaching past the retention, answered in UTC days from the aggregates
 * (its `timezone` says UTC) so that a long range never loses its older days (docs/adr/044).
 */

export interface StatsAnswerDeps {
  store: Pick<StatsStore, 'stats'> &
    Pick<GroupStore, 'findGroupOfWorkspace'> &
    Pick<ConversionStore, 'conversionDays' | 'variantConversions'>;
  domainOf: AddressedDomain;
  now: () => number;
  retentionDays: number;
}

export interface StatsAsk {
  scope: StatsScope;
  workspaceId: number;
  /** The workspace's zone; `tz` overrides it. */
  zone: string | undefined;
  query: Record<string, unknown>;
}

const refuse = (field: string, reason: string) =>
  new Refusal('300', `The query parameter ${field} is invalid: ${reason}.`);

/** The period of equal length just before: as many of the zone's days, or as many hours. */
function previousOf(range: StatsRange): StatsRange {
  if (range.interval === 'hour')
    return { ...range, from: range.from - (range.to - range.from), to: range.from };
  const zone = range.zone ?? 'UTC';
  const days = localDay(range.to - 1, zone) - localDay(range.from, zone) + 1;
  return { ...range, from: dayStartIn(localDay(range.from, zone) - days, zone), to: range.from };
}

/**
 * The clicks of a scope and range as the API answers them, with leads and sales beside them: kept
 * by UTC day per link and workspace (docs/api.md §20), whatever zone the clicks were read with; a
 * workspace's group, tag and domain keep their links' figures, a filter on the visits keeps none
 * and the figures say so (`filtered: false`); a link's answer splits them by A/B test variant
 * (docs/adr/045).
 */
export async function answerWithConversions(
  store: Pick<StatsStore, 'stats'> & Pick<ConversionStore, 'conversionDays' | 'variantConversions'>,
  scope: StatsScope,
  range: StatsRange,
  filter?: EventFilter,
): Promise<StatsAnswer> {
  const { fromDay, toDay } = rangeDays(range);
  const links = filter && { groupId: filter.groupId, tag: filter.tag, domainId: filter.domainId };
  const [stored, days, variants] = await Promise.all([
    store.stats(scope, range, filter),
    store.conversionDays(scope, fromDay, toDay, links),
    'linkId' in scope ? store.variantConversions(scope.linkId, fromDay, toDay) : undefined,
  ]);
  const clicks = statsAnswer(stored, range);
  const filtered =
    !filter || keepsAll({ ...filter, groupId: undefined, tag: undefined, domainId: undefined });
  const options = variants ? { filtered, variants } : { filtered };
  return { ...clicks, conversions: conversionFigures(days, range, clicks.totals.clicks, options) };
}

export function statsAnswers(deps: StatsAnswerDeps) {
  /** The answer of one range; a zoned unfiltered range past the retention falls back to UTC days. */
  async function answerOf(scope: StatsScope, asked: StatsRange, filter: EventFilter, kept: number) {
    let range = asked;
    if (keepsAll(filter) && range.interval === 'day' && !isUtc(range.zone) && range.from < kept) {
      const { zone, ...utc } = range;
      const from = Math.floor(utc.from / DAY_MS) * DAY_MS;
      range = { ...utc, from, to: Math.max(Math.ceil(utc.to / DAY_MS) * DAY_MS, from + DAY_MS) };
    }
    const answer = await answerWithConversions(deps.store, scope, range, filter);
    const readsEvents = range.interval === 'hour' || !keepsAll(filter) || !isUtc(range.zone);
    return {
      range,
      answer: readsEvents && range.from < kept ? { ...answer, retained_from: rfc3339(kept) } : answer,
    };
  }

  return async (ask: StatsAsk): Promise<{ answer: StatsAnswer; range: StatsRange }> => {
    const { query } = ask;
    const now = deps.now();
    if (query.tz !== undefined && !isTimeZone(query.tz)) refuseWith('tz', 'tz is an IANA time zone name');
    const zone = typeof query.tz === 'string' ? query.tz : zoneOrUtc(ask.zone);
    const parsed = parseStatsRange(query, { now, retentionDays: deps.retentionDays, zone });
    if (parsed.kind === 'invalid') throw refuse(parsed.field, parsed.reason);
    const ofWorkspace = 'workspaceId' in ask.scope;
    const filters = parseStatsFilters(query, ofWorkspace ? FILTERS : [...EVENT_FILTERS, ...UTM_FILTERS]);
    if (filters.kind === 'invalid') throw refuse(filters.field, filters.reason);
    if (query.compare !== undefined && query.compare !== 'previous')
      refuseWith('compare', 'compare is previous');
    const { group, domain } = filters.filters;
    const groupId =
      group === undefined ? undefined : (await groupOrRefuse(deps.store, ask.workspaceId, group)).id;
    const domainId = domain === undefined ? undefined : deps.domainOf(ask.workspaceId, domain);
    const filter = eventFilterOf(filters.filters, { groupId, domainId });
    const kept = now - (now % DAY_MS) - deps.retentionDays * DAY_MS;
    const main = await answerOf(ask.scope, parsed.range, filter, kept);
    if (query.compare !== 'previous') return main;
    const before = await answerOf(ask.scope, previousOf(main.range), filter, kept);
    return { range: main.range, answer: { ...main.answer, previous: before.answer } };
  };
}

function refuseWith(field: string, reason: string): never {
  throw refuse(field, reason);
}

export type StatsAnswers = ReturnType<typeof statsAnswers>;
