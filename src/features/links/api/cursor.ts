import { createHmac, timingSafeEqual } from 'node:crypto';
import { Refusal } from '../../../core/errors.ts';
import type { LinkOrder, LinkPosition } from '../../../core/link-query.ts';

/**
 * Page cursors (docs/api.md §7.1): the keyset position of a page's last link, bound to the account,
 * signed so a cursor Snip did not issue (or one of another account) is refused with 300. Keyset
 * positions stay right while links are added or deleted between pages: a page starts after the
 * last link shown, whatever happened to it since. A cursor names the order it was made in (docs/api.md
 * §18): with another sort or direction its position means nothing, and it is refused with 300.
 */

/** The order a page was read in. */
export interface CursorOrder {
  sort: LinkOrder;
  ascending: boolean;
}

/** Cursors issued before sorts existed held no order: theirs was the only one, newest first. */
const FIRST_ORDER: CursorOrder = { sort: 'created', ascending: false };
const MAX_TEXT_VALUE = 1024;

const validValue = (sort: LinkOrder, value: unknown): value is number | string =>
  sort === 'title'
    ? typeof value === 'string' && value.length <= MAX_TEXT_VALUE
    : Number.isSafeInteger(value);

const MAC_BYTES = 16;

export function pageCursors(key: Buffer) {
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);

  return {
    issue(workspaceId: number, position: LinkPosition, order: CursorOrder = FIRST_ORDER): string {
      const fields = [workspaceId, order.sort, order.ascending ? 'asc' : 'desc', position.value, position.id];
      const payload = Buffer.from(JSON.stringify(fields)).toString('base64url');
      return `${payload}.${mac(payload).toString('base64url')}`;
    },

    /** The position a cursor names in `order`, or a 300 Refusal (one made in another order too). */
    readIn(workspaceId: number, cursor: string, order: CursorOrder): LinkPosition {
      const refused = () => new Refusal('300', 'The cursor is not one this Snip issued for this account.');
      const [payload = '', signature = '', ...rest] = cursor.split('.');
      if (rest.length > 0 || !/^[A-Za-z0-9_-]+$/.test(payload)) throw refused();
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused();
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        throw refused();
      }
      if (!Array.isArray(decoded) || decoded[0] !== workspaceId) throw refused();
      const fields: unknown[] =
        decoded.length === 3 ? [decoded[0], 'created', 'desc', ...decoded.slice(1)] : decoded;
      const [, sort, direction, value, id] = fields;
      if (fields.length !== 5) throw refused();
      if (sort !== order.sort || direction !== (order.ascending ? 'asc' : 'desc'))
        throw new Refusal('300', 'The cursor was made for another sort or order: start again without it.');
      if (!validValue(order.sort, value) || !Number.isSafeInteger(id)) throw refused();
      return { value, id: id as number };
    },

    /** The position of a cursor of the first order, newest first (the lists that have no other). */
    read(workspaceId: number, cursor: string): { value: number; id: number } {
      const { value, id } = this.readIn(workspaceId, cursor, FIRST_ORDER);
      return { value: Number(value), id };
    },
  };
}

export type PageCursors = ReturnType<typeof pageCursors>;
