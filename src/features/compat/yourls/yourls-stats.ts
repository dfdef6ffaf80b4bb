import { DAY_MS } from '../../../core/days.ts';
import type { LinkQuery } from '../../../core/link-query.ts';
import type { YourlsMembers } from './yourls-encode.ts';
import { linkRow, type YourlsCall } from './yourls-links.ts';
import { STATS_NEED_FORMAT } from './yourls-lookups.ts';
import type { YourlsAnswer } from './yourls-output.ts';
import { intParam } from './yourls-params.ts';

/**
 * action=stats and action=db-stats: the workspace's links by `filter` (top, bottom, last, rand) and
 * its totals. As in YOURLS, `limit` is read as PHP's intval, so a missing or non-numeric limit lists
 * no links; here it is also held to at most MAX_STATS_LIMIT, and `start` to a sane offset.
 */

export const MAX_STATS_LIMIT = 1000;
const MAX_START = 2 ** 31 - 1;

type Order = Pick<LinkQuery, 'order' | 'ascending'> | 'random';

function orderOf(filter: string | undefined): Order {
  if (filter === 'bottom') return { order: 'clicks', ascending: true };
  if (filter === 'last') return { order: 'created' };
  if (filter === 'rand' || filter === 'random') return 'random';
  return { order: 'clicks' };
}

/**
 * Human clicks of the workspace over all its days: the daily history, read in one query rather
 * than by summing every link (deleted links' clicks count; clicks recorded with TRACKING=off do not).
 */
async function totals(call: YourlsCall): Promise<YourlsMembers> {
  const { deps, actor } = call;
  const to = (Math.floor(deps.now() / DAY_MS) + 1) * DAY_MS;
  const [links, stored] = await Promise.all([
    deps.store.countLiveLinks(actor.workspaceId),
    deps.store.stats({ workspaceId: actor.workspaceId }, { from: 0, to, interval: 'day' }),
  ]);
  return { total_links: links, total_clicks: stored.totals.clicks };
}

function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** `rand`: a window at a random place among the links, shuffled (the store has no random order). */
async function pageOf(call: YourlsCall, order: Order, limit: number, start: number) {
  const { deps, actor } = call;
  if (order !== 'random') {
    return (await deps.store.listLinks(actor.workspaceId, { ...order, offset: start, limit, counted: false }))
      .links;
  }
  const count = await deps.store.countLiveLinks(actor.workspaceId);
  const offset = Math.floor(Math.random() * (Math.max(0, count - limit) + 1));
  const page = await deps.store.listLinks(actor.workspaceId, {
    order: 'created',
    offset,
    limit,
    counted: false,
  });
  return shuffled(page.links);
}

export async function statsAction(call: YourlsCall): Promise<YourlsAnswer> {
  const { params } = call;
  const limit = intParam(params.get('limit'), 0, MAX_STATS_LIMIT);
  const start = intParam(params.get('start'), 0, MAX_START);
  const members: YourlsMembers = {};
  if (limit > 0) {
    const links = await pageOf(call, orderOf(params.get('filter')), limit, start);
    if (links.length > 0) {
      members.links = Object.fromEntries(links.map((link, i) => [`link_${i + 1}`, linkRow(call.deps, link)]));
    }
  }
  members.stats = await totals(call);
  members.statusCode = '200';
  members.message = 'success';
  return { members, simple: STATS_NEED_FORMAT };
}

export async function dbStatsAction(call: YourlsCall): Promise<YourlsAnswer> {
  return {
    members: { 'db-stats': await totals(call), statusCode: '200', message: 'success' },
    simple: STATS_NEED_FORMAT,
  };
}
