import { createHmac, timingSafeEqual } from 'node:crypto';
import { Refusal } from '../../../core/errors.ts';
import type { LinkPosition } from '../../../core/link-query.ts';

/**
 * Page cursors (docs/api.md §7.1): the keyset position of a page's last link, bound to the account,
 * signed so a cursor Snip did not issue (or one of another account) is refused with 300. Keyset
 * positions stay right while links are added or deleted between pages: a page starts after the
 * last link shown, whatever happened to it since.
 */

const MAC_BYTES = 16;

export function pageCursors(key: Buffer) {
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);

  return {
    issue(workspaceId: number, position: LinkPosition): string {
      const payload = Buffer.from(JSON.stringify([workspaceId, position.value, position.id])).toString(
        'base64url',
      );
      return `${payload}.${mac(payload).toString('base64url')}`;
    },

    /** The position a cursor names, or a 300 Refusal. */
    read(workspaceId: number, cursor: string): LinkPosition {
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
      if (!Array.isArray(decoded) || decoded.length !== 3 || decoded[0] !== workspaceId) throw refused();
      const [, value, id] = decoded as [number, unknown, unknown];
      if (!Number.isSafeInteger(value) || !Number.isSafeInteger(id)) throw refused();
      return { value: value as number, id: id as number };
    },
  };
}

export type PageCursors = ReturnType<typeof pageCursors>;
