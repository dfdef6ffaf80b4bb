import { DAY_MS, HOUR_MS } from '../../../core/days.ts';
import type { Actor, Group, Link, Workspace } from '../../../core/entities.ts';
import { UnavailableError } from '../../../core/errors.ts';
import {
  type LinkFind,
  type LinkOrder,
  type LinkPage,
  type LinkPosition,
  type LinkState,
  positionOf as placeOf,
} from '../../../core/link-query.ts';
import type { AbTestStore } from '../../../core/ports/ab-test-store.ts';
import type { WindowCounter } from '../../../core/ports/shared-state.ts';
import type { ClickStore, GroupStore, KeyStore, LinkStore } from '../../../core/ports/store.ts';
import type { TagStore } from '../../../core/ports/tag-store.ts';
import { secondsUntil, windowAt, workspaceRateWindow } from '../../../core/rate-window.ts';
import type { LinkPatch } from '../link-requests.ts';
import { type CampaignForm, campaignChanges } from './campaign-form.ts';
import { type ClickSeries, clickSeries, lastDays } from './click-series.ts';
import { type RuleForm, ruleChanges } from './rule-form.ts';
import { type VariantForm, variantChanges } from './variant-form.ts';

/** What the dashboard shows of one account: a page of its links, its groups, usage and clicks over time. */

export const PAGE_SIZE = 50;
export const CHART_DAYS = 30;
const TOP_LINKS = 5;

/** A link's place in the order it is listed in. */
export const positionOf = (link: Link, order: LinkOrder): LinkPosition => placeOf(link, order);

/** Where the pages around this one start: read backwards, `more` means newer links remain. */
function neighbours(page: LinkPage, filter: LinkFilter): { newer?: LinkPosition; older?: LinkPosition } {
  const [first, last] = [page.links[0], page.links.at(-1)];
  if (!first || !last) return {};
  const backwards = filter.after === undefined && filter.before !== undefined;
  const hasNewer = backwards ? page.more : filter.after !== undefined;
  const hasOlder = backwards || page.more;
  return {
    ...(hasNewer ? { newer: positionOf(first, filter.order) } : {}),
    ...(hasOlder ? { older: positionOf(last, filter.order) } : {}),
  };
}

export interface LinkFilter {
  search: string;
  /** The search as the store takes it (a short URL pasted whole found by its domain and code). */
  find?: LinkFind;
  groupId: number | undefined;
  /** Only links with this tag (the first of `tags`). */
  tag?: string;
  /** Only links with every one of these tags (the address's repeated `tag`). */
  tags?: string[];
  /** Only the links on this domain: its host as in the address, and its id (-1 for one not the workspace's). */
  domain?: { host: string; id: number };
  /** Only links in this state; without it, every link but the archived (docs/api.md §18). */
  state?: Exclude<LinkState, 'listed'>;
  /** The sort (`sort` in the address). */
  order: LinkOrder;
  /** Lowest first (`order=asc`). */
  ascending?: boolean;
  /** The page after (older, or less clicked than) this position, or before it. */
  after?: LinkPosition;
  before?: LinkPosition;
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
  /** Where the neighbouring pages start, when there are any. */
  newer?: LinkPosition;
  older?: LinkPosition;
  groups: Group[];
  usage: Usage;
  chart: ClickSeries;
  /** The most clicked links, for the breakdown beside the chart. */
  top: Link[];
  /** The tags of each listed link, sorted; a link without tags is absent. */
  tags: Map<number, string[]>;
  /** Whether the workspace's plan lets it use the API (else no page tells it to). */
  apiAccess: boolean;
  /** Every tag of the workspace's links, sorted: the list's choice of tag. */
  allTags: string[];
}

export interface LinkDetail {
  link: Link;
  group: Group | undefined;
  /** Every group of the account, to move the link into. */
  groups: Group[];
  chart: ClickSeries;
  /** The link's tags, sorted. */
  tags: string[];
  /** Its former codes, oldest first: each still leads to it (docs/api.md §18). */
  aliases: string[];
  /** Clicks per variant (1-based) of its running A/B test, as flushed. */
  variantClicks?: ReadonlyMap<number, number>;
}

/** The link page's form as sent: its target, title, group (an ID, or empty for none) and rules. */
export interface LinkForm {
  url: string;
  title: string;
  group: string;
  /** Expiry, visit limit, password and targeting; absent, they stay as they are. */
  rules?: RuleForm;
  /** UTM values, query forwarding and the social preview; absent, they stay as they are. */
  campaign?: CampaignForm;
  /** The tags, separated by commas; absent, they stay as they are. */
  tags?: string;
  /** The short code; absent or empty, it stays as it is. */
  slug?: string;
  /** Its stats page is public at /<code>+; absent (a form without the box), it stays as it is. */
  publicStats?: boolean;
  /** Its A/B test; absent (a form without the fields), it stays as it is. */
  test?: VariantForm;
}

/** Tags as typed: separated by commas, trimmed, each once, in the order typed. */
export function tagsOfText(text: string): string[] {
  return [...new Set(text.split(',').map((tag) => tag.trim()))].filter((tag) => tag !== '');
}

/** What the form changes of the link, and only that: a field left as it was is not checked again. */
export function linkChanges(link: Link, form: LinkForm, tags: readonly string[] = []): LinkPatch {
  const patch: LinkPatch = {};
  if (form.tags !== undefined) {
    const typed = tagsOfText(form.tags);
    if ([...typed].sort().join(',') !== [...tags].sort().join(',')) patch.tags = typed;
  }
  if (form.url.trim() !== link.longUrl) patch.url = form.url;
  if (form.title.trim() !== link.title) patch.title = form.title;
  const slug = form.slug?.trim() ?? '';
  if (slug !== '' && slug !== link.code) patch.slug = slug;
  if (form.publicStats !== undefined && form.publicStats !== link.publicStats)
    patch.publicStats = form.publicStats;
  const group = form.group.trim();
  if (group !== (link.groupId === null ? '' : String(link.groupId)))
    patch.group = group === '' ? null : group;
  return {
    ...patch,
    ...(form.rules ? ruleChanges(link, form.rules) : {}),
    ...(form.campaign ? campaignChanges(link, form.campaign) : {}),
    ...(form.test ? variantChanges(link, form.test) : {}),
  };
}

export interface DashboardOptions {
  store: Pick<
    ClickStore & GroupStore & KeyStore & LinkStore & TagStore,
    | 'listLinks'
    | 'listGroups'
    | 'countLiveLinks'
    | 'findMainKey'
    | 'dailyClicksOfWorkspace'
    | 'dailyClicksOfLink'
    | 'findLinkOfWorkspace'
    | 'tagsOf'
    | 'aliasesOf'
    | 'tagStats'
  > &
    Partial<Pick<AbTestStore, 'variantClicks'>>;
  /** The counter /create spends, read without spending. */
  counter: WindowCounter;
  now?: () => number;
}

/** The account acting itself, in the window its live key spends (the API's and the dashboard's). */
async function actorOf(store: DashboardOptions['store'], account: Workspace): Promise<Actor> {
  const key = await store.findMainKey(account.id);
  return { keyId: key?.id ?? 0, workspaceId: account.id, plan: account.plan };
}

async function usageOf(options: DashboardOptions, account: Workspace, at: number): Promise<Usage> {
  const rate = workspaceRateWindow(await actorOf(options.store, account));
  const window = windowAt(at, HOUR_MS);
  // The request window lives in shared state; while that cannot answer the page still renders,
  // with the figure shown as unavailable.
  const [links, requestsThisHour] = await Promise.all([
    options.store.countLiveLinks(account.id),
    (options.counter.peekShared ?? options.counter.peek)
      .call(options.counter, rate.key, window)
      .catch((error: unknown) => {
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

/** The tags a list asks for, every one to hold. */
function tagsOf(filter: LinkFilter): { values: string[]; all: true } | undefined {
  const values = filter.tags ?? (filter.tag ? [filter.tag] : []);
  return values.length === 0 ? undefined : { values, all: true };
}

export function dashboardService(options: DashboardOptions) {
  const { store } = options;
  const now = options.now ?? Date.now;

  async function chart(read: (from: string, to: string) => Promise<{ day: string; clicks: number }[]>) {
    const days = lastDays(now(), CHART_DAYS);
    return clickSeries(days, await read(days[0] ?? '', days[days.length - 1] ?? ''));
  }

  return {
    actorOf: (account: Workspace) => actorOf(store, account),

    async overview(account: Workspace, filter: LinkFilter): Promise<Overview> {
      const [links, groups, used, series, top, allTags] = await Promise.all([
        store.listLinks(account.id, {
          groupId: filter.groupId,
          domainId: filter.domain?.id,
          find: filter.find ?? (filter.search ? { text: filter.search } : undefined),
          tags: tagsOf(filter),
          state: { is: filter.state ?? 'listed', now: now() },
          order: filter.order,
          ascending: filter.ascending,
          limit: PAGE_SIZE,
          after: filter.after,
          before: filter.before,
        }),
        store.listGroups(account.id),
        usageOf(options, account, now()),
        chart((from, to) => store.dailyClicksOfWorkspace(account.id, from, to)),
        store.listLinks(account.id, { order: 'clicks', limit: TOP_LINKS }),
        store.tagStats(account.id),
      ]);
      return {
        links,
        ...neighbours(links, filter),
        groups,
        usage: used,
        chart: series,
        top: top.links.filter((link) => link.clicks > 0),
        tags: await store.tagsOf(links.links.map((link) => link.id)),
        apiAccess: account.plan.apiAccess,
        allTags: allTags.map((stat) => stat.tag),
      };
    },

    /** One link of the account with its clicks over time; undefined for anyone else's or a deleted one. */
    async link(account: Workspace, domainId: number, code: string): Promise<LinkDetail | undefined> {
      const link = await store.findLinkOfWorkspace(account.id, domainId, code);
      if (!link) return undefined;
      const started = link.test && Math.floor(link.test.startedAt.getTime() / DAY_MS);
      const [groups, series, tags, aliases, variantClicks] = await Promise.all([
        store.listGroups(account.id),
        chart((from, to) => store.dailyClicksOfLink(link.id, from, to)),
        store.tagsOf([link.id]),
        store.aliasesOf([link.id]),
        started === null ? undefined : store.variantClicks?.(link.id, started),
      ]);
      const group = groups.find((candidate) => candidate.id === link.groupId);
      const [shownTags, former] = [tags.get(link.id) ?? [], aliases.get(link.id) ?? []];
      return { link, group, groups, chart: series, tags: shownTags, aliases: former, variantClicks };
    },

    /** The account's groups, for a choice of group. */
    groups: (account: Workspace) => store.listGroups(account.id),

    /** Links against the quota and requests this hour, without the rest of the overview. */
    usage: (account: Workspace) => usageOf(options, account, now()),

    /** A live link of the account with its tags: what a copy of it starts from. */
    async original(account: Workspace, domainId: number, code: string) {
      const link = await store.findLinkOfWorkspace(account.id, domainId, code);
      if (!link) return undefined;
      return { link, tags: (await store.tagsOf([link.id])).get(link.id) ?? [] };
    },

    /** A live link of the account, without its chart. */
    async ownLink(account: Workspace, domainId: number, code: string): Promise<Link | undefined> {
      return store.findLinkOfWorkspace(account.id, domainId, code);
    },
  };
}

export type DashboardService = ReturnType<typeof dashboardService>;
