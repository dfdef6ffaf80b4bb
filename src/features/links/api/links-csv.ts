import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type CsvDomain, csvLine, LINK_CSV_COLUMNS } from '../../../core/csv.ts';
import type { Actor } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import type { LinkPosition } from '../../../core/link-query.ts';
import type { GroupStore, LinkExportStore } from '../../../core/ports/store.ts';
import type { LinkOrigins } from '../../../core/short-url.ts';

/**
 * GET /api/v1/links.csv (RFC 4180, CRLF): every live link of the account, newest first. Titles come
 * from pages anyone can write, so cells a spreadsheet would run as formulas are neutralised.
 */

export { LINK_CSV_COLUMNS };

/** Exports of one account under way at once on this instance; more wait their turn (429). */
export const EXPORTS_PER_ACCOUNT = 2;

/**
 * Every live link of the account as CSV, a page at a time: the store reads and writes each page
 * (on SQLite a reader thread, so this thread only passes the text on), and the next one is asked
 * for only when this one has been taken — memory stays flat at any size, and a client that goes
 * away stops the reading.
 */
export async function* linksCsv(
  store: Pick<GroupStore & LinkExportStore, 'exportLinksPage' | 'listGroups'>,
  origins: LinkOrigins,
  actor: Actor,
  /** Only the links on this domain. */
  domainId?: number,
): AsyncGenerator<string> {
  const groups = new Map(
    (await store.listGroups(actor.workspaceId)).map((group) => [group.id, group.apiId] as const),
  );
  const domains = new Map<number, CsvDomain>();
  yield csvLine(LINK_CSV_COLUMNS);
  let after: LinkPosition | undefined;
  for (;;) {
    const page = await store.exportLinksPage({
      workspaceId: actor.workspaceId,
      domainId,
      after,
      groups,
      domains,
    });
    if ('missing' in page) {
      for (const id of page.missing)
        domains.set(id, { origin: origins.origin(id), host: origins.hostOf(id) });
      continue;
    }
    if (page.csv !== '') yield page.csv;
    if (!page.next) return;
    after = page.next;
    // A store on the network writes a page on this thread: let redirects and other requests run between pages.
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
    // One chunk ahead at most: the next page is read when the socket has taken the one before.
    const stream = Readable.from(read(actor, ...rest), { highWaterMark: 1 });
    stream.once('close', () => {
      const left = (running.get(actor.workspaceId) ?? 1) - 1;
      if (left > 0) running.set(actor.workspaceId, left);
      else running.delete(actor.workspaceId);
    });
    return stream;
  };
}
