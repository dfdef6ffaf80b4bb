import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { csvLine } from '../../../core/csv.ts';
import type { Actor } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import type { GroupStore, LinkStore } from '../../../core/ports/store.ts';
import type { LinkOrigins } from '../../../core/short-url.ts';
import { groupsById, linkResource } from './resources.ts';

/**
 * GET /api/v1/links.csv (RFC 4180, CRLF): every live link of the account, newest first. Titles come
 * from pages anyone can write, so cells a spreadsheet would run as formulas are neutralised.
 */

export const LINK_CSV_COLUMNS = [
  'short_code',
  'short_url',
  'long_url',
  'title',
  'group',
  'tags',
  'created_at',
  'expires_at',
  'clicks',
  'unique_visitors',
  'domain',
] as const;

/** Links read per store round trip while exporting. */
const EXPORT_PAGE = 500;
/** Exports of one account under way at once on this instance; more wait their turn (429). */
export const EXPORTS_PER_ACCOUNT = 2;

/** Every live link of the account as CSV lines, read page by page: memory stays flat at any size. */
export async function* linksCsv(
  store: Pick<GroupStore & LinkStore, 'listLinks' | 'tagsOf' | 'listGroups'>,
  origins: LinkOrigins,
  actor: Actor,
  /** Only the links on this domain. */
  domainId?: number,
): AsyncGenerator<string> {
  const groups = await groupsById(store, actor.workspaceId);
  yield csvLine(LINK_CSV_COLUMNS);
  let after: { value: number; id: number } | undefined;
  for (;;) {
    const query = { limit: EXPORT_PAGE, after, counted: false, domainId };
    const page = await store.listLinks(actor.workspaceId, query);
    const tags = await store.tagsOf(page.links.map((link) => link.id));
    let chunk = '';
    for (const link of page.links) {
      const group = link.groupId === null ? undefined : groups.get(link.groupId);
      const row = linkResource(origins, link, group, tags.get(link.id) ?? []);
      chunk += csvLine([
        row.short_code,
        row.short_url,
        row.long_url,
        row.title,
        group?.apiId ?? '',
        row.tags.join(','),
        row.created_at,
        row.expires_at ?? '',
        String(row.clicks),
        String(row.unique_visitors),
        row.domain,
      ]);
    }
    if (chunk !== '') yield chunk;
    const last = page.links.at(-1);
    if (!page.more || !last) return;
    after = { value: last.createdAt.getTime(), id: last.id };
    // An embedded store reads a page on this thread: let redirects and other requests run between pages.
    await nextTurn();
  }
}

/**
 * The export of one account as a stream, while the account has fewer than EXPORTS_PER_ACCOUNT
 * under way; its place is given back when the stream closes, finished or cut off.
 */
export function csvExports<A extends unknown[]>(read: (actor: Actor, ...rest: A) => AsyncGenerator<string>) {
  const running = new Map<number, number>();
  return (actor: Actor, ...rest: A): Readable => {
    const held = running.get(actor.workspaceId) ?? 0;
    if (held >= EXPORTS_PER_ACCOUNT) {
      throw new Refusal(
        '429',
        'This account has as many exports under way as it may; try again when one ends.',
        {
          retryAfterSeconds: 5,
        },
      );
    }
    running.set(actor.workspaceId, held + 1);
    const stream = Readable.from(read(actor, ...rest));
    stream.once('close', () => {
      const left = (running.get(actor.workspaceId) ?? 1) - 1;
      if (left > 0) running.set(actor.workspaceId, left);
      else running.delete(actor.workspaceId);
    });
    return stream;
  };
}
