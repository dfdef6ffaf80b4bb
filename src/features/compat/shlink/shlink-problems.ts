/**
 * Shlink's problem details (RFC 9457 as its API v3 writes them): `type` is a URL under
 * https://shlink.io/api/error/, `title` and `status` are those of Shlink's exception, and members
 * such as `invalidElements` or `shortCode` follow. A problem Snip adds (a refusal Shlink never
 * makes) takes a type under the same base, so a client that reads the type sees one family.
 */

export const PROBLEM_BASE = 'https://shlink.io/api/error/';

export interface ShlinkProblem {
  status: number;
  /** The last segment of the type URL, e.g. `invalid-data`. */
  type: string;
  title: string;
  detail: string;
  /** Members after the four, in this order (`invalidElements`, `shortCode`, Snip's `code`, …). */
  extra?: Record<string, unknown>;
}

/** A request answered with a problem: thrown by the handlers, written by the scope's error handler. */
export class ShlinkError extends Error {
  override name = 'ShlinkError';
  readonly problem: ShlinkProblem;
  readonly headers: Readonly<Record<string, string>>;

  constructor(problem: ShlinkProblem, headers: Record<string, string> = {}) {
    super(problem.detail);
    this.problem = problem;
    this.headers = headers;
  }
}

/** The body as Shlink writes it: type, title, detail, status, then the extra members. */
export function problemBody(problem: ShlinkProblem): Record<string, unknown> {
  return {
    type: `${PROBLEM_BASE}${problem.type}`,
    title: problem.title,
    detail: problem.detail,
    status: problem.status,
    ...problem.extra,
  };
}

/** 400 `invalid-data`: the request's fields named in `invalidElements` are not valid. */
export function invalidData(elements: readonly string[], detail = 'Provided data is not valid'): ShlinkError {
  return new ShlinkError({
    status: 400,
    type: 'invalid-data',
    title: 'Invalid data',
    detail,
    extra: { invalidElements: [...new Set(elements)], code: '300' },
  });
}

/** The `domain` member Shlink adds for a short URL off the default domain. */
const onDomain = (domain: string | null | undefined) => (domain ? { domain } : {});
const forDomain = (domain: string | null | undefined) => (domain ? ` for domain "${domain}"` : '');

export function shortUrlNotFound(shortCode: string, domain?: string | null): ShlinkError {
  return new ShlinkError({
    status: 404,
    type: 'short-url-not-found',
    title: 'Short URL not found',
    detail: `No URL found with short code "${shortCode}"${forDomain(domain)}`,
    extra: { shortCode, ...onDomain(domain), code: '314' },
  });
}

export function nonUniqueSlug(customSlug: string, domain?: string | null): ShlinkError {
  return new ShlinkError({
    status: 400,
    type: 'non-unique-slug',
    title: 'Invalid custom slug',
    detail: `Provided slug "${customSlug}" is already in use${forDomain(domain)}.`,
    extra: { customSlug, ...onDomain(domain), code: '313' },
  });
}

export function tagNotFound(tag: string): ShlinkError {
  return new ShlinkError({
    status: 404,
    type: 'tag-not-found',
    title: 'Tag not found',
    detail: `Tag with name "${tag}" could not be found`,
    extra: { tag },
  });
}

export function tagConflict(oldName: string, newName: string): ShlinkError {
  return new ShlinkError({
    status: 409,
    type: 'tag-conflict',
    title: 'Tag conflict',
    detail: `You cannot rename tag ${oldName} to ${newName}, because it already exists`,
    extra: { oldName, newName },
  });
}

export function domainNotFound(authority: string): ShlinkError {
  return new ShlinkError({
    status: 404,
    type: 'domain-not-found',
    title: 'Domain not found',
    detail: `Domain with authority "${authority}" could not be found`,
    extra: { authority, code: '317' },
  });
}

/** 403 for a key without the scope a tag change needs (Shlink: a key that is not an admin's). */
export function forbiddenTagOperation(what: 'rename' | 'delete'): ShlinkError {
  return new ShlinkError({
    status: 403,
    type: 'forbidden-tag-operation',
    title: 'Forbidden tag operation',
    detail: `You are not allowed to ${what} tags`,
    extra: { code: '315' },
  });
}

/** 401 without a key: in the X-Api-Key header, or the `apiKey` query parameter of /short-urls/shorten. */
export function missingAuthentication(inQuery: boolean): ShlinkError {
  return new ShlinkError({
    status: 401,
    type: 'missing-authentication',
    title: 'Invalid authorization',
    detail: inQuery
      ? 'Expected authentication to be provided in "apiKey" query param'
      : 'Expected one of the following authentication headers, ["X-Api-Key"], but none were provided',
    extra: { ...(inQuery ? { param: 'apiKey' } : { expectedHeaders: ['X-Api-Key'] }), code: '301' },
  });
}

export function invalidApiKey(): ShlinkError {
  return new ShlinkError({
    status: 401,
    type: 'invalid-api-key',
    title: 'Invalid API key',
    detail: 'Provided API key does not exist or is invalid.',
    extra: { code: '303' },
  });
}

/** 501 for what Shlink's API can ask and Snip does not do (docs/migrating/shlink.md). */
export function notSupported(detail: string): ShlinkError {
  return new ShlinkError({ status: 501, type: 'not-supported', title: 'Not supported by Snip', detail });
}

/** Shlink's own answer when no Mercure hub is configured: Snip has none. */
export function mercureNotConfigured(): ShlinkError {
  return new ShlinkError({
    status: 501,
    type: 'mercure-not-configured',
    title: 'Mercure integration not configured',
    detail: 'This Shlink instance is not integrated with a mercure hub.',
  });
}
