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
  // A tag chip lists that tag's links; without one, every tag asked for stays.
  const tags = change.tag ? [change.tag] : filter.tag ? (filter.tags ?? [filter.tag]) : [];
  for (const tag of tags) query.append('tag', tag);
  if (filter.domain) query.set('domain', filter.domain.host);
  if (filter.state) query.set('state', filter.state);
  // A new sort starts from its own default direction.
  const order = change.order ?? filter.order;
  if (order !== 'created') query.set('sort', order);
  if (change.order === undefined && filter.ascending) query.set('order', 'asc');
  if (change.after) query.set('after', `${change.after.value}.${change.after.id}`);
  if (change.before) query.set('before', `${change.before.value}.${change.before.id}`);
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}
