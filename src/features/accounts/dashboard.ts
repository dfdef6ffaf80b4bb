import type { Account, Actor, Group, Link, LinkPage } from '../../core/entities.ts';
import { UnavailableError } from '../../core/errors.ts';
import type { WindowCounter } from '../../core/ports/shared-state.ts';
import type { Store } from '../../core/ports/store.ts';
import { accountRateWindow, HOUR_MS, secondsUntil, windowAt } from '../../core/rate-window.ts';
import { type ClickSeries, clickSeries, lastDays } from './click-series.ts';

/** What the dashboard shows of one account: a page of its links, its groups, usage and clicks over time. */

export const PAGE_SIZE = 50;
export const CHART_DAYS = 30;

export interface LinkFilter {
  /** 1-based. */
  page: number;
  search: string;
  groupId: number | undefined;
}

export interface Usage {
  links: number;
  quota: number;
  /** Undefined while the shared request counters cannot be read. */
  requestsThisHour: number | undefined;
  rateLimit: number;
  /** Seconds until the hourly window resets. */
  resetSeconds: number;
}

export interface Overview {
  links: LinkPage;
  page: number;
  pages: number;
  groups: Group[];
  usage: Usage;
  chart: ClickSeries;
}

export interface LinkDetail {
  link: Link;
  group: Group | undefined;
  chart: ClickSeries;
}

export interface DashboardOptions {
  store: Pick<
    Store,
    | 'listLinks'
    | 'listGroups'
    | 'countLiveLinks'
    | 'findLiveApiKey'
    | 'dailyClicksOfAccount'
    | 'dailyClicksOfLink'
    | 'findLinkOfAccount'
    | 'findGroupOfAccount'
    | 'deleteLink'
  >;
  /** The counter /create spends, read without spending. */
  counter: WindowCounter;
  /** Told of every deleted code, so the redirect stops at once (on every instance). */
  onDeleted: (code: string) => void | Promise<void>;
  now?: () => number;
}

export function dashboardService(options: DashboardOptions) {
  const { store } = options;
  const now = options.now ?? Date.now;

  /** The account acting itself, in the window its live key spends (the API's and the dashboard's). */
  async function actorOf(account: Account): Promise<Actor> {
    const key = await store.findLiveApiKey(account.id);
    return { keyId: key?.id ?? 0, accountId: account.id, plan: account.plan };
  }

  async function usage(account: Account): Promise<Usage> {
    const at = now();
    const rate = accountRateWindow(await actorOf(account));
    const window = windowAt(at, HOUR_MS);
    // The request window lives in shared state; while that cannot answer the page still renders,
    // with the figure shown as unavailable.
    const [links, requestsThisHour] = await Promise.all([
      store.countLiveLinks(account.id),
      options.counter.peek(rate.key, window).catch((error: unknown) => {
        if (error instanceof UnavailableError) return undefined;
        throw error;
      }),
    ]);
    return {
      links,
      quota: account.plan.urlQuota,
      requestsThisHour,
      rateLimit: rate.limit,
      resetSeconds: secondsUntil(window.end, at),
    };
  }

  async function chart(read: (from: string, to: string) => Promise<{ day: string; clicks: number }[]>) {
    const days = lastDays(now(), CHART_DAYS);
    return clickSeries(days, await read(days[0] ?? '', days[days.length - 1] ?? ''));
  }

  return {
    actorOf,

    async overview(account: Account, filter: LinkFilter): Promise<Overview> {
      const page = Math.max(1, filter.page);
      const [links, groups, used, series] = await Promise.all([
        store.listLinks(account.id, {
          groupId: filter.groupId,
          search: filter.search || undefined,
          limit: PAGE_SIZE,
          offset: (page - 1) * PAGE_SIZE,
        }),
        store.listGroups(account.id),
        usage(account),
        chart((from, to) => store.dailyClicksOfAccount(account.id, from, to)),
      ]);
      const pages = Math.max(1, Math.ceil(links.total / PAGE_SIZE));
      return { links, page, pages, groups, usage: used, chart: series };
    },

    /** One link of the account with its clicks over time; undefined for anyone else's or a deleted one. */
    async link(account: Account, code: string): Promise<LinkDetail | undefined> {
      const link = await store.findLinkOfAccount(account.id, code);
      if (!link) return undefined;
      const [group, series] = await Promise.all([
        link.groupId === null ? undefined : store.findGroupOfAccount(account.id, { id: link.groupId }),
        chart((from, to) => store.dailyClicksOfLink(link.id, from, to)),
      ]);
      return { link, group, chart: series };
    },

    /** A live link of the account, without its chart. */
    async ownLink(account: Account, code: string): Promise<Link | undefined> {
      return store.findLinkOfAccount(account.id, code);
    },

    /** Soft delete (the code is never given out again); false when the link is not the account's. */
    async deleteLink(account: Account, code: string): Promise<boolean> {
      const deleted = await store.deleteLink(account.id, code);
      if (deleted) await options.onDeleted(code);
      return deleted;
    },
  };
}

export type DashboardService = ReturnType<typeof dashboardService>;
