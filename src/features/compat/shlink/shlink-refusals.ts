import { isApiErrorCode, type Refusal } from '../../../core/errors.ts';
import { rateHeaders } from '../../../http/rate-headers.ts';
import {
  forbiddenTagOperation,
  invalidApiKey,
  invalidData,
  missingAuthentication,
  nonUniqueSlug,
  type ShlinkError,
  ShlinkError as ShlinkErrorClass,
  shortUrlNotFound,
} from './shlink-problems.ts';

/**
 * Snip's refusals (core/errors.ts) as Shlink's problems, each keeping Snip's numbered code in
 * `code`. Shlink's own types where one means the same thing; the rest under the same base, listed
 * in docs/migrating/shlink.md. What a refusal names (the short URL, the slug, the field) comes
 * from the request that was refused.
 */

export interface RefusalContext {
  /** The short URL the request names: 314 is its short-url-not-found. */
  shortCode?: string;
  /** Its domain as the request named it (undefined or null: the default domain). */
  domain?: string | null;
  /** The custom slug asked for: 313 is its non-unique-slug. */
  customSlug?: string;
  /** The fields a 300 is about when the request's own checks did not name one. */
  invalid?: readonly string[];
  /** 317 on a new link is invalid data (the domain); on an existing short URL, none is found. */
  unknownDomain?: 'invalid-data' | 'short-url-not-found';
  /** The key was expected in the `apiKey` query parameter. */
  keyInQuery?: boolean;
  /** 315 on a tag change is Shlink's forbidden-tag-operation. */
  tagOperation?: 'rename' | 'delete';
}

interface Kind {
  status: number;
  type: string;
  title: string;
}

const INVALID: Kind = { status: 400, type: 'invalid-data', title: 'Invalid data' };
const FORBIDDEN: Kind = { status: 403, type: 'forbidden-operation', title: 'Forbidden operation' };

/** Refusals Shlink has no problem of its own for. */
const SNIP_KINDS: Readonly<Record<string, Kind>> = {
  '304': { status: 403, type: 'link-quota-reached', title: 'Link quota reached' },
  '305': { status: 409, type: 'long-url-already-shortened', title: 'Long URL already shortened' },
  '306': { status: 400, type: 'invalid-url', title: 'Invalid URL' },
  '307': { status: 400, type: 'invalid-url', title: 'Invalid URL' },
  '308': { status: 400, type: 'invalid-url', title: 'Invalid URL' },
  '309': { status: 400, type: 'invalid-url', title: 'Invalid URL' },
  '311': { status: 400, type: 'invalid-url', title: 'Invalid URL' },
  '320': { status: 400, type: 'invalid-url', title: 'Invalid URL' },
  '310': { status: 403, type: 'forbidden-url', title: 'URL not allowed' },
  '316': { status: 403, type: 'forbidden-url', title: 'URL not allowed' },
  '315': FORBIDDEN,
  '318': { ...INVALID, status: 409 },
  '319': { ...INVALID, status: 409 },
  '429': { status: 429, type: 'too-many-requests', title: 'Too many requests' },
};

function byCode(refusal: Refusal, context: RefusalContext): ShlinkError | undefined {
  switch (refusal.code) {
    case '300':
    case '312':
      return invalidData(context.invalid ?? [], refusal.message);
    case '301':
      return missingAuthentication(context.keyInQuery === true);
    case '302':
      return invalidData(['longUrl']);
    case '303':
      return invalidApiKey();
    case '313':
      return nonUniqueSlug(context.customSlug ?? '', context.domain);
    case '314':
      return shortUrlNotFound(context.shortCode ?? '', context.domain);
    case '315':
      return context.tagOperation ? forbiddenTagOperation(context.tagOperation) : undefined;
    case '317':
      return context.unknownDomain === 'short-url-not-found'
        ? shortUrlNotFound(context.shortCode ?? '', context.domain)
        : invalidData(['domain']);
    default:
      return undefined;
  }
}

/** The problem of a refusal, with its RateLimit-* and Retry-After headers. */
export function refusalProblem(refusal: Refusal, context: RefusalContext = {}): ShlinkError {
  const headers = rateHeaders(refusal.facts.rate);
  if (refusal.facts.retryAfterSeconds !== undefined) {
    headers['retry-after'] = String(refusal.facts.retryAfterSeconds);
  }
  const known = byCode(refusal, context);
  if (known) {
    // Snip's own number, not the one the problem's constructor assumes (302 and 317 are invalid data too).
    const extra = { ...known.problem.extra, code: refusal.code };
    return new ShlinkErrorClass({ ...known.problem, extra }, { ...headers, ...known.headers });
  }
  const existing = refusal.facts.existingCode === undefined ? {} : { shortCode: refusal.facts.existingCode };
  // Any other numbered code is about the request's data; a word (an account's state) forbids it.
  const kind = SNIP_KINDS[refusal.code] ?? (isApiErrorCode(refusal.code) ? INVALID : FORBIDDEN);
  return new ShlinkErrorClass(
    { ...kind, detail: refusal.message, extra: { ...existing, code: refusal.code } },
    headers,
  );
}
