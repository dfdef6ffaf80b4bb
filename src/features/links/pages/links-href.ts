import type { LinkOrder, LinkPosition } from '../../../core/link-query.ts';
import type { LinkFilter } from './dashboard.ts';

/** What an address of the dashboard changes of the list it shows. */
export interface ListChange {
  order?: LinkOrder;
  after?: LinkPosition;
  before?: LinkPosition;
  /** Only this group's links (a group chip). */
  groupId?: number;
  /** Only the links with this tag (a tag chip). */
  tag?: string;
}

/** The dashboard's address for a filter, with some of it changed (a page position is dropped unless given). */
export function dashboardHref(base: string, filter: LinkFilter, change: ListChange = {}): string {
  const query = new URLSearchParams();
  if (filter.search) query.set('q', filter.search);
  const groupId = change.groupId ?? filter.groupId;
  if (groupId !== undefined) query.set('group', String(groupId));
  const tag = change.tag ?? filter.tag;
  if (tag) query.set('tag', tag);
  const order = change.order ?? filter.order;
  if (order !== 'created') query.set('order', order);
  if (change.after) query.set('after', `${change.after.value}.${change.after.id}`);
  if (change.before) query.set('before', `${change.before.value}.${change.before.id}`);
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}
