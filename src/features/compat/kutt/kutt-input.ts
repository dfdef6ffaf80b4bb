import { expiryOf } from './kutt-duration.ts';
import { kuttError } from './kutt-errors.ts';

/**
 * Kutt's request fields read as Kutt's validators read them (server/handlers/validators.handler.js),
 * in their order, the first wrong one answered 400 with Kutt's reason: empty values count as not
 * given, a target without a scheme gets http://. Snip's own rules (a slug of 3 characters at least,
 * a password of 8) come after, from the links service, in the same form.
 */

type Fields = Record<string, unknown>;

/** A body that is not an object reads as an empty one, as Kutt's JSON parser leaves it. */
export const fieldsOf = (body: unknown): Fields =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Fields) : {};

const given = (value: unknown) => value !== undefined && value !== null && value !== '' && value !== false;

function text(value: unknown, invalid: string): string | undefined {
  if (!given(value) || value === 0) return undefined;
  if (typeof value !== 'string') throw kuttError(400, invalid);
  return value;
}

const MAX_URL = 2040;
const ADDRESS = /^[a-zA-Z0-9_-]+$/;

/** Kutt's addProtocol: what names no scheme is taken as http. */
const withScheme = (url: string) => (/^(\w+:|\/\/)/.test(url) ? url : `http://${url}`);

function target(value: unknown, needed: boolean): string | undefined {
  if (needed && (!given(value) || value === 0)) throw kuttError(400, 'Target is missing.');
  const url = text(value, 'URL is not valid.')?.trim();
  if (url === undefined) return undefined;
  if (url.length > MAX_URL) throw kuttError(400, `Maximum URL length is ${MAX_URL}.`);
  return withScheme(url);
}

function password(value: unknown): string | undefined {
  const word = text(value, 'Password is not valid.');
  if (word !== undefined && (word.length < 3 || word.length > 64)) {
    throw kuttError(400, 'Password length must be between 3 and 64.');
  }
  return word;
}

function address(value: unknown, invalid: string): string | undefined {
  const code = text(value, invalid)?.trim();
  if (code === undefined) return undefined;
  if (code.length < 1 || code.length > 64)
    throw kuttError(400, 'Custom URL length must be between 1 and 64.');
  if (!ADDRESS.test(code)) throw kuttError(400, invalid);
  return code;
}

function description(value: unknown): string | undefined {
  const words = text(value, 'Description is not valid.')?.trim();
  if (words !== undefined && words.length > MAX_URL) {
    throw kuttError(400, `Description length must be between 0 and ${MAX_URL}.`);
  }
  return words === '' ? undefined : words;
}

function expiresAt(value: unknown, now: number): string | undefined {
  const duration = text(value, 'Expire format is invalid. Valid examples: 1m, 8h, 42 days.');
  if (duration === undefined) return undefined;
  const expiry = expiryOf(duration, now);
  if ('refused' in expiry) throw kuttError(400, expiry.refused);
  return expiry.at;
}

/** Kutt's isBoolean: true and false, also as the strings and 1/0 a form sends. */
function reuse(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  throw kuttError(400, 'Reuse must be boolean.');
}

export interface KuttCreate {
  target: string;
  password?: string;
  customurl?: string;
  reuse: boolean;
  description?: string;
  /** RFC 3339: `expire_in` from now. */
  expiresAt?: string;
  domain?: string;
}

/** POST /links: target, password, customurl, reuse, description, expire_in, domain. */
export function readCreate(body: unknown, now: number): KuttCreate {
  const fields = fieldsOf(body);
  const url = target(fields.target, true) ?? '';
  const secret = password(fields.password);
  const customurl = address(fields.customurl, 'Custom URL is not valid.');
  const again = reuse(fields.reuse);
  const words = description(fields.description);
  const expiry = expiresAt(fields.expire_in, now);
  const domain = text(fields.domain, 'Domain should be string.')?.toLowerCase();
  return {
    target: url,
    reuse: again,
    ...(secret === undefined ? {} : { password: secret }),
    ...(customurl === undefined ? {} : { customurl }),
    ...(words === undefined ? {} : { description: words }),
    ...(expiry === undefined ? {} : { expiresAt: expiry }),
    ...(domain === undefined ? {} : { domain }),
  };
}

export interface KuttEdit {
  target?: string;
  address?: string;
  description?: string;
  expiresAt?: string;
  /** A new password; null removes it ("" or null given); undefined leaves it. */
  password?: string | null;
}

/** Kutt's form shows a password as dots; sent back unchanged, it changes nothing. */
const MASKED = /^•+$/;

function newPassword(fields: Fields): string | null | undefined {
  if (!('password' in fields)) return undefined;
  const value = fields.password;
  if (value === '' || value === null) return null;
  const word = password(value);
  return word === undefined || MASKED.test(word) ? undefined : word;
}

/** PATCH /links/{id}: target, password, address, expire_in, description; empty ones change nothing. */
export function readEdit(body: unknown, now: number): KuttEdit {
  const fields = fieldsOf(body);
  const url = target(fields.target, false);
  const secret = newPassword(fields);
  const code = address(fields.address, 'Custom URL is not valid');
  const expiry = expiresAt(fields.expire_in, now);
  const words = description(fields.description);
  return {
    ...(url === undefined ? {} : { target: url }),
    ...(secret === undefined ? {} : { password: secret }),
    ...(code === undefined ? {} : { address: code }),
    ...(expiry === undefined ? {} : { expiresAt: expiry }),
    ...(words === undefined ? {} : { description: words }),
  };
}

export interface KuttListQuery {
  limit: number;
  skip: number;
  search?: string;
}

const MAX_SEARCH = 2040;

/** One query value as Kutt's parseQuery reads it: a string or nothing (a repeated one is refused). */
function queryText(query: Fields, name: string): string | undefined {
  const value = query[name];
  if (value !== undefined && typeof value !== 'string') throw kuttError(400, `${name} query is not valid.`);
  return value;
}

/**
 * GET /links: `limit` (10 when missing, 0 or not a number, at most 50) and `skip` (0 likewise) as
 * parseInt reads them; a negative one, which Kutt's database refuses with a 500, is refused here.
 */
export function readListQuery(raw: unknown): KuttListQuery {
  const query = fieldsOf(raw);
  const limitText = queryText(query, 'limit');
  const skipText = queryText(query, 'skip');
  const search = queryText(query, 'search');
  const limit = Number.parseInt(limitText ?? '', 10) || 10;
  const skip = Number.parseInt(skipText ?? '', 10) || 0;
  if (limit < 0) throw kuttError(400, 'limit query is not valid.');
  if (skip < 0 || !Number.isSafeInteger(skip)) throw kuttError(400, 'skip query is not valid.');
  if (search !== undefined && search.length > MAX_SEARCH) throw kuttError(400, 'search query is not valid.');
  return { limit: Math.min(limit, 50), skip, ...(search?.trim() ? { search: search.trim() } : {}) };
}
