import type { StatsRange, StatsScope } from '../../core/analytics/model.ts';
import type { StatsAnswer } from '../../core/analytics/stats.ts';
import { FILTERS } from '../../core/analytics/stats-filters.ts';
import { DAY_MS } from '../../core/days.ts';
import type { Link, Workspace } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import type { ConversionStore } from '../../core/ports/conversion-store.ts';
import type { GroupStore, LinkStore, StatsStore, WorkspaceStore } from '../../core/ports/store.ts';
import { zoneOrUtc } from '../../core/time-zone.ts';
import type { AddressedDomain } from '../domains/index.ts';
import { statsAnswers } from './stats-answers.ts';

/**
 * The dashboard's visit stats (docs/api.md §9.4) of an account or one of its links: the range the
 * address asks for, read from the store and shaped as the API answers it. A range that cannot be
 * read is reported beside the default range's stats, so the page still shows something useful.
 */

export interface StatsQuery {
  from: string;
  to: string;
  interval: string;
  /** tz, compare and the filters of docs/api.md §19, passed through to the answer as given. */
  more: Record<string, string>;
}

export interface StatsReport {
  answer: StatsAnswer;
  range: StatsRange;
  /** The query as sent (for the form); empty fields are absent ones. */
  query: StatsQuery;
  /** Why the query was refused; the report is then of the default range. */
  refused?: { field: string; reason: string };
  /** Whether hourly buckets can be asked for this range (its start is within the retention). */
  hourlyAllowed: boolean;
  retentionDays: number;
  /** The workspace's zone, which the page's days are in unless the address names another (`tz`). */
  workspaceZone: string;
  /** Epoch ms of the start of today (UTC), for the range picker's presets. */
  today: number;
}

export interface VisitStatsOptions {
  store: Pick<
    LinkStore & StatsStore & GroupStore & WorkspaceStore & ConversionStore,
    | 'stats'
    | 'findLinkOfWorkspace'
    | 'findGroupOfWorkspace'
    | 'findWorkspaceById'
    | 'conversionDays'
    | 'variantConversions'
  >;
  domainOf: AddressedDomain;
  now: () => number;
  /** ANALYTICS_RETENTION_DAYS: how far back hourly stats reach. */
  retentionDays: number;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 40) : '');

/** The form's fields of a query string: anything but a short string counts as not given. */
export function statsQuery(raw: unknown): StatsQuery {
  const query = (raw ?? {}) as Record<string, unknown>;
  const more: Record<string, string> = {};
  for (const name of [...FILTERS, 'tz', 'compare']) {
    const value = query[name];
    if (typeof value === 'string' && value.trim() !== '') more[name] = value.slice(0, 253);
  }
  return { from: text(query.from), to: text(query.to), interval: text(query.interval), more };
}

export function visitStats(options: VisitStatsOptions) {
  const { store, retentionDays } = options;

  const answers = statsAnswers(options);

  async function report(
    scope: StatsScope,
    workspace: Pick<Workspace, 'id' | 'timezone'>,
    rawQuery: unknown,
  ): Promise<StatsReport> {
    const now = options.now();
    const query = statsQuery(rawQuery);
    const given = {
      ...(query.from ? { from: query.from } : {}),
      ...(query.to ? { to: query.to } : {}),
      ...(query.interval ? { interval: query.interval } : {}),
      ...query.more,
    };
    const ask = { scope, workspaceId: workspace.id, zone: workspace.timezone };
    let refused: StatsReport['refused'];
    let read: { answer: StatsAnswer; range: StatsRange };
    try {
      read = await answers({ ...ask, query: given });
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      const said = /^The query parameter (\w+) is invalid: (.*)\.$/.exec(error.message);
      refused = { field: said?.[1] ?? error.code, reason: said?.[2] ?? error.message };
      read = await answers({ ...ask, query: {} });
    }
    const today = now - (now % DAY_MS);
    return {
      answer: read.answer,
      range: read.range,
      query,
      ...(refused ? { refused } : {}),
      hourlyAllowed: read.range.from >= today - retentionDays * DAY_MS,
      retentionDays,
      workspaceZone: zoneOrUtc(workspace.timezone),
      today,
    };
  }

  return {
    /** Every link of the account together. */
    ofWorkspace(account: Workspace, query: unknown): Promise<StatsReport> {
      return report({ workspaceId: account.id }, account, query);
    },

    /** A link shown to anyone (docs/api.md §19): the default range in its workspace's zone, whatever is asked. */
    async ofPublicLink(link: Link): Promise<StatsReport> {
      const workspace = await store.findWorkspaceById(link.workspaceId);
      return report(
        { linkId: link.id },
        { id: link.workspaceId, timezone: workspace?.timezone ?? 'UTC' },
        {},
      );
    },

    /** One live link of the account; undefined for anyone else's link or a deleted one. */
    async ofLink(
      account: Workspace,
      domainId: number,
      code: string,
      query: unknown,
    ): Promise<{ link: Link; report: StatsReport } | undefined> {
      const link = await store.findLinkOfWorkspace(account.id, domainId, code);
      if (!link) return undefined;
      return { link, report: await report({ linkId: link.id }, account, query) };
    },
  };
}

export type VisitStats = ReturnType<typeof visitStats>;
