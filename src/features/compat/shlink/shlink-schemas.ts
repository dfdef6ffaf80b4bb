import { type TSchema, Type } from '@sinclair/typebox';
import type { Scope } from '../../../core/scopes.ts';
import { RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from '../../../http/openapi-parts.ts';

/**
 * The Shlink API in /openapi.json: Shlink's own shapes (its OpenAPI definitions ShortUrl, Visit,
 * TagInfo, Pagination, problem details). They describe; they do not validate or serialize — the
 * routes read their input themselves and build every answer field by field (shlink-routes.ts).
 */

const nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);

export const SummarySchema = Type.Object({
  total: Type.Integer({ description: 'Human clicks and bot hits.' }),
  nonBots: Type.Integer({ description: 'Human clicks.' }),
  bots: Type.Integer({ description: 'Redirects of bots, previews and prefetches.' }),
});

export const ShortUrlSchema = Type.Object({
  shortCode: Type.String(),
  shortUrl: Type.String(),
  longUrl: Type.String(),
  dateCreated: Type.String({ format: 'date-time' }),
  visitsSummary: SummarySchema,
  tags: Type.Array(Type.String()),
  meta: Type.Object({
    validSince: Type.Null({ description: 'Always null: Snip has no start date.' }),
    validUntil: nullable(Type.String({ format: 'date-time' })),
    maxVisits: nullable(Type.Integer()),
  }),
  domain: nullable(Type.String({ description: "null on the workspace's default domain." })),
  title: nullable(Type.String()),
  crawlable: Type.Boolean({ description: 'Always false.' }),
  forwardQuery: Type.Boolean({
    description: "The short URL's query is appended to the long URL at the redirect.",
  }),
  hasRedirectRules: Type.Boolean(),
});

export const PaginationSchema = Type.Object({
  currentPage: Type.Integer(),
  pagesCount: Type.Integer(),
  itemsPerPage: Type.Integer(),
  itemsInCurrentPage: Type.Integer(),
  totalItems: Type.Integer(),
});

export const VisitSchema = Type.Object({
  referer: Type.String({ description: "The referrer's host; empty for a direct visit." }),
  date: Type.String({ format: 'date-time' }),
  userAgent: Type.String({
    description:
      "Rebuilt from the browser and OS families (never the visitor's own), in tokens user agent parsers read: " +
      '"Mozilla/5.0 (Windows NT 10.0; Win64; x64) … Firefox/125.0"; empty when neither is known.',
  }),
  visitLocation: nullable(
    Type.Object({
      countryCode: Type.String(),
      countryName: Type.String(),
      regionName: Type.String(),
      cityName: Type.String(),
      latitude: Type.Number(),
      longitude: Type.Number(),
      timezone: Type.String(),
      isEmpty: Type.Boolean(),
    }),
  ),
  potentialBot: Type.Boolean({ description: 'Always false: bot hits are counted, not kept one by one.' }),
  visitedUrl: nullable(Type.String()),
  redirectUrl: Type.Null(),
});

export const visitsListSchema = Type.Object({
  visits: Type.Object({ data: Type.Array(VisitSchema), pagination: PaginationSchema }),
});

export const TagInfoSchema = Type.Object({
  tag: Type.String(),
  shortUrlsCount: Type.Integer(),
  visitsSummary: SummarySchema,
});

export const RedirectsSchema = Type.Object({
  baseUrlRedirect: nullable(Type.String()),
  regular404Redirect: nullable(Type.String()),
  invalidShortUrlRedirect: nullable(Type.String()),
});

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'A URL under https://shlink.io/api/error/.' }),
    title: Type.String(),
    detail: Type.String(),
    status: Type.Integer(),
    code: Type.Optional(
      Type.String({ description: "Snip's numbered code (docs/api.md §2.3), when one applies." }),
    ),
  },
  { additionalProperties: true, description: "Shlink's problem details." },
);

export const SHLINK_TAG = 'Shlink compatibility';

const PROBLEM_WORDS: Readonly<Record<number, string>> = {
  400: 'Invalid data (`invalid-data` with `invalidElements`), a slug in use, an invalid URL.',
  401: 'No key (`missing-authentication`) or a key that is not valid (`invalid-api-key`).',
  403: 'The key lacks the scope, or the target or the quota is refused.',
  404: 'No such short URL, tag or domain.',
  409: 'A tag name in use, or a long URL the workspace already shortened.',
  429: "The workspace's hourly window is spent, or too many wrong keys came from this address.",
  501: 'Something Snip does not do.',
  503: 'The store or the shared state did not answer in time.',
};

function problemAnswer(status: number) {
  const headers = status === 429 || status === 503 ? { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER } : {};
  return {
    description: PROBLEM_WORDS[status] ?? 'A problem.',
    content: { 'application/problem+json': { schema: ProblemSchema } },
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
}

export interface ShlinkOperation {
  operationId: string;
  summary: string;
  description: string;
  /** How the key comes: the X-Api-Key header, the `apiKey` query parameter, or not at all. */
  key: 'header' | 'query' | 'none';
  scope?: Scope;
  /** The success answers by status: a schema (JSON), or a full response object. */
  ok: Record<number, object>;
  problems?: number[];
  querystring?: TSchema;
  params?: TSchema;
  body?: TSchema;
}

/** The route's `schema`: what /openapi.json shows of it. */
export function shlinkSchema(op: ShlinkOperation) {
  const scopeNote =
    op.key === 'none'
      ? 'No key needed.'
      : op.scope
        ? `Needs the \`${op.scope}\` scope.`
        : 'Any key of the workspace.';
  const keyed = op.key === 'none' ? [] : [401, 429];
  const response: Record<string, object> = { ...op.ok, 503: problemAnswer(503) };
  for (const status of [...keyed, ...(op.problems ?? []), ...(op.scope ? [403] : [])]) {
    response[status] = problemAnswer(status);
  }
  return {
    tags: [SHLINK_TAG],
    operationId: op.operationId,
    summary: op.summary,
    description: `${op.description} ${scopeNote}`,
    security: op.key === 'header' ? [{ ApiKeyHeader: [] }] : op.key === 'query' ? [{ ApiKeyQuery: [] }] : [],
    response,
    ...(op.querystring ? { querystring: op.querystring } : {}),
    ...(op.params ? { params: op.params } : {}),
    ...(op.body ? { body: op.body } : {}),
  };
}

/** The success of an operation Snip refuses (501): documented so a reader sees it is never given. */
export const NEVER_OK = { 200: { description: "Shlink's success; Snip never answers it: see 501." } };

/** A JSON success answer with the RateLimit-* headers. */
export const okJson = (schema: TSchema, description: string) => ({
  description,
  headers: RATE_LIMIT_HEADERS,
  content: { 'application/json': { schema } },
});
