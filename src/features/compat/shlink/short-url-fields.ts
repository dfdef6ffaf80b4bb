import { Refusal } from '../../../core/errors.ts';
import { checkTags, checkTitle, MAX_CLICKS_LIMIT, MAX_TITLE_LENGTH } from '../../../core/link-fields.ts';
import type { LinksApi } from '../../links/index.ts';
import {
  BAD,
  bodyList,
  bodyText,
  dateField,
  type Fields,
  flag,
  type Invalid,
  positiveInteger,
  type Read,
} from './shlink-input.ts';

/**
 * The fields a Shlink create and edit share (ShortUrlEdition in Shlink's OpenAPI), read into the
 * /api/v1 body the links service takes. Each is checked here with Snip's own rules first, so a
 * refusal names its field in `invalidElements`; the service checks them again, in its order.
 */

export type CreateBody = Parameters<LinksApi['create']>[1];
export type PatchBody = Parameters<LinksApi['patch']>[2];

/** What create and edit both name; null where Shlink lets null clear a field. */
export interface EditionFields {
  title?: string;
  tags?: string[];
  expires_at?: string | null;
  max_clicks?: number | null;
  forward_query?: boolean;
}

/** A check of Snip's that answers 300 as an invalid field. */
function checked<T>(run: () => T): T | typeof BAD {
  try {
    return run();
  } catch (error) {
    if (error instanceof Refusal && error.code === '300') return BAD;
    throw error;
  }
}

/** Shlink crops a title to its column; Snip's is MAX_TITLE_LENGTH characters. Null clears it. */
function titleOf(value: Read<string | null>): Read<string> {
  if (value === undefined || value === BAD) return value;
  const cropped = [...(value ?? '').trim()].slice(0, MAX_TITLE_LENGTH).join('');
  return checked(() => checkTitle(cropped));
}

function tagsOf(value: Read<string[]>): Read<string[]> {
  if (value === undefined || value === BAD) return value;
  return checked(() => checkTags(value));
}

/** validSince: Snip cannot hold a link back until a later time, so only a time already come is accepted (and ignored). */
function sinceOf(value: Read<number | null>, now: number): Read<null> {
  if (value === BAD) return BAD;
  return value === undefined || value === null || value <= now ? undefined : BAD;
}

/** validUntil: Snip's expires_at, in the future (a link is never made already expired). */
function untilOf(value: Read<number | null>, now: number): Read<string | null> {
  if (value === undefined || value === null || value === BAD) return value;
  return value > now ? new Date(value).toISOString() : BAD;
}

function maxVisitsOf(value: unknown): Read<number | null> {
  if (value === null) return null;
  const number = positiveInteger(value);
  return typeof number === 'number' && number > MAX_CLICKS_LIMIT ? BAD : number;
}

/** The shared fields of the body; every invalid one is noted in `invalid`. */
export function editionFields(body: Fields, invalid: Invalid, now: number): EditionFields {
  const fields: EditionFields = {};
  const title = invalid.take('title', titleOf(bodyText(body, 'title')));
  if (title !== undefined) fields.title = title;
  const tags = invalid.take('tags', tagsOf(bodyList(body, 'tags')));
  if (tags !== undefined) fields.tags = tags;
  invalid.take('validSince', sinceOf(dateField(body.validSince), now));
  const until = invalid.take('validUntil', untilOf(dateField(body.validUntil), now));
  if (until !== undefined) fields.expires_at = until;
  const maxVisits = invalid.take('maxVisits', maxVisitsOf(body.maxVisits));
  if (maxVisits !== undefined) fields.max_clicks = maxVisits;
  // Accepted for Shlink's clients, which send it; Snip's links are never crawlable.
  invalid.take('crawlable', flag(body.crawlable));
  const forward = invalid.take('forwardQuery', flag(body.forwardQuery));
  if (forward !== undefined) fields.forward_query = forward;
  return fields;
}

/** A body that is a JSON object (or a form), else every field is missing. */
export function bodyFields(body: unknown): Fields | undefined {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Fields) : undefined;
}
