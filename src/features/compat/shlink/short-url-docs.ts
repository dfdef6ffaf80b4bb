import { Type } from '@sinclair/typebox';
import { okJson, PaginationSchema, ShortUrlSchema, shlinkSchema } from './shlink-schemas.ts';

/** How /openapi.json shows Shlink's short URL operations (documentation only: see shlink-schemas.ts). */

const text = (description: string) => Type.Optional(Type.String({ description }));
const dateText = (description: string) => Type.Optional(Type.String({ format: 'date-time', description }));
const DOMAIN_QUERY = Type.Object({
  domain: text(
    "The short URL's domain; none, `DEFAULT` or the default host: the workspace's default domain.",
  ),
});
const CODE_PARAMS = Type.Object({ shortCode: Type.String({ description: 'The short code.' }) });

const LIST_QUERY = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, description: 'From 1 (default 1).' })),
  itemsPerPage: Type.Optional(
    Type.Integer({ minimum: -1, description: 'Default 10; -1: every short URL. At most 1,000 on a page.' }),
  ),
  searchTerm: text('Part of the long URL, the title, the short code or a tag (any case).'),
  'tags[]': Type.Optional(
    Type.Array(Type.String(), {
      description:
        'Only short URLs with these tags (also read as `tags[0]=`, `tags[1]=` or `tags=` repeated).',
    }),
  ),
  tagsMode: Type.Optional(Type.Union([Type.Literal('any'), Type.Literal('all')])),
  orderBy: text(
    '`field-ASC` or `field-DESC` of dateCreated, shortCode, longUrl, title, visits, nonBotVisits (both count human clicks).',
  ),
  startDate: dateText('Created at or after (ISO 8601).'),
  endDate: dateText('Created at or before (ISO 8601).'),
  excludeMaxVisitsReached: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
  excludePastValidUntil: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
  domain: text('Only this domain (`DEFAULT`: the default one).'),
});

const EDITION = {
  validSince: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: 'Only a time already come (ignored); a later one is refused.',
    }),
  ),
  validUntil: Type.Optional(
    Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'In the future; null removes it.',
    }),
  ),
  maxVisits: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  tags: Type.Optional(Type.Array(Type.String())),
  title: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  crawlable: Type.Optional(Type.Boolean({ description: 'Accepted; never honoured.' })),
  forwardQuery: Type.Optional(
    Type.Boolean({
      description: "Append the short URL's query to the long URL at the redirect (default true on create).",
    }),
  ),
};

const CREATE_BODY = Type.Object({
  longUrl: Type.String(),
  customSlug: Type.Optional(Type.String({ description: 'Spaces and slashes become dashes.' })),
  domain: Type.Optional(Type.String()),
  findIfExists: Type.Optional(Type.Boolean()),
  shortCodeLength: Type.Optional(
    Type.Integer({ minimum: 4, description: 'Accepted; Snip draws 7 characters.' }),
  ),
  ...EDITION,
});

const SHORT_URL_OK = (description: string) => ({ 200: okJson(ShortUrlSchema, description) });

export const LIST = shlinkSchema({
  operationId: 'shlinkListShortUrls',
  summary: 'List short URLs (Shlink)',
  description: "Shlink's list of short URLs, one page at a time.",
  key: 'header',
  scope: 'links:read',
  querystring: LIST_QUERY,
  ok: {
    200: okJson(
      Type.Object({
        shortUrls: Type.Object({ data: Type.Array(ShortUrlSchema), pagination: PaginationSchema }),
      }),
      'One page of short URLs.',
    ),
  },
  problems: [400],
});

export const CREATE = shlinkSchema({
  operationId: 'shlinkCreateShortUrl',
  summary: 'Create a short URL (Shlink)',
  description:
    'Every check of a Snip create applies. A long URL the workspace already shortened (on that domain) ' +
    'answers that short URL with `findIfExists`, else 409 `long-url-already-shortened`.',
  key: 'header',
  scope: 'links:create',
  body: CREATE_BODY,
  ok: SHORT_URL_OK('The short URL.'),
  problems: [400, 409],
});

export const SHORTEN = shlinkSchema({
  operationId: 'shlinkShortenUrl',
  summary: 'Shorten a URL in one step (Shlink)',
  description:
    'The key in `apiKey`. A long URL already shortened answers its short URL. `format=txt` (or Accept: ' +
    'text/plain) answers the short URL as plain text.',
  key: 'query',
  scope: 'links:create',
  querystring: Type.Object({
    apiKey: Type.String(),
    longUrl: Type.String(),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('txt')])),
  }),
  ok: {
    200: {
      description: 'The short URL.',
      content: {
        'application/json': { schema: ShortUrlSchema },
        'text/plain': { schema: Type.String() },
      },
    },
  },
  problems: [400],
});

export const GET = shlinkSchema({
  operationId: 'shlinkGetShortUrl',
  summary: 'Get a short URL (Shlink)',
  description: 'One short URL of the workspace.',
  key: 'header',
  scope: 'links:read',
  params: CODE_PARAMS,
  querystring: DOMAIN_QUERY,
  ok: SHORT_URL_OK('The short URL.'),
  problems: [404],
});

export const EDIT = shlinkSchema({
  operationId: 'shlinkEditShortUrl',
  summary: 'Edit a short URL (Shlink)',
  description: 'Changes the fields given; a new long URL passes the checks of a create.',
  key: 'header',
  scope: 'links:write',
  params: CODE_PARAMS,
  querystring: DOMAIN_QUERY,
  body: Type.Object({ longUrl: Type.Optional(Type.String()), ...EDITION }),
  ok: SHORT_URL_OK('The short URL as it is now.'),
  problems: [400, 404, 409],
});

export const DELETE = shlinkSchema({
  operationId: 'shlinkDeleteShortUrl',
  summary: 'Delete a short URL (Shlink)',
  description: 'The code answers 404 everywhere and is never issued again; there is no visits threshold.',
  key: 'header',
  scope: 'links:write',
  params: CODE_PARAMS,
  querystring: DOMAIN_QUERY,
  ok: { 204: { description: 'Deleted.' } },
  problems: [404],
});
