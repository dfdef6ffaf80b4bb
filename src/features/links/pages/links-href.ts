import type { LinkOrder, LinkPosition } from '../../../core/link-query.ts';
import type { LinkFilter } from './dashboard.ts';

/** A filter of the list that a chip takes off: a tag of the ones asked for, or the whole of another. */
export type DroppedFilter = { tag: string } | 'search' | 'group' | 'domain' | 'state';

/** What an address of the dashboard changes of the list it shows. */
export interface ListChange {
  order?: LinkOrder;
  /** With `order`: lowest first (a column heading clicked again flips its order). */
  ascending?: boolean;
  after?: LinkPosition;
  before?: LinkPosition;
  /** Only this group's links (a group chip). */
  groupId?: number;
  /** Only the links with this tag (a tag chip). */
  tag?: string;
  /** A filter taken off (an active filter's chip). */
  drop?: DroppedFilter;
}

/** The tags an address keeps: a tag chip's alone, else every one asked for but one dropped. */
function tagsOf(filter: LinkFilter, change: ListChange): string[] {
  if (change.tag) return [change.tag];
  const tags = filter.tag ? (filter.tags ?? [filter.tag]) : [];
  const drop = change.drop;
  return typeof drop === 'object' ? tags.filter((tag) => tag !== drop.tag) : tags;
}

/** The dashboard's address for a filter, with some of it changed (a page position is dropped unless given). */
export function dashboardHref(base: string, filter: LinkFilter, change: ListChange = {}): string {
  const query = new URLSearchParams();
  const drop = change.drop;
  if (filter.search && drop !== 'search') query.set('q', filter.search);
  const groupId = change.groupId ?? (drop === 'group' ? undefined : filter.groupId);
  if (groupId !== undefined) query.set('group', String(groupId));
  for (const tag of tagsOf(filter, change)) query.append('tag', tag);
  if (filter.domain && drop !== 'domain') query.set('domain', filter.domain.host);
  if (filter.state && drop !== 'state') query.set('state', filter.state);
  // A new sort starts from its own default direction, unless told.
  const order = change.order ?? filter.order;
  if (order !== 'created') query.set('sort', order);
  const ascending = change.order === undefined ? filter.ascending : change.ascending;
  if (ascending) query.set('order', 'asc');
  if (change.after) query.set('after', `${change.after.value}.${change.after.id}`);
  if (change.before) query.set('before', `${change.before.value}.${change.before.id}`);
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}
