import { Type } from '@sinclair/typebox';
import { NEVER_OK, okJson, SummarySchema, shlinkSchema, visitsListSchema } from './shlink-schemas.ts';

/** How /openapi.json shows Shlink's visit operations (documentation only: see shlink-schemas.ts). */

const VISITS_QUERY = {
  page: Type.Optional(Type.Integer({ description: 'From 1; below 1 is page 1.' })),
  itemsPerPage: Type.Optional(
    Type.Integer({ description: 'Absent or negative: every visit, at most 5,000 on a page.' }),
  ),
  startDate: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601, inclusive.' })),
  endDate: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601, inclusive.' })),
  excludeBots: Type.Optional(Type.String({ description: 'Accepted: bot hits are never listed one by one.' })),
};
const WITH_DOMAIN = {
  ...VISITS_QUERY,
  domain: Type.Optional(Type.String({ description: 'A host, or DEFAULT.' })),
};

const VISITS_OK = { 200: okJson(visitsListSchema, 'One page of visits, newest first.') };
const WORDS =
  "Snip's raw visits: human clicks, kept ANALYTICS_RETENTION_DAYS; the referrer's host, the country, the " +
  'browser and OS families.';

export const SHORT_URL_VISITS = shlinkSchema({
  operationId: 'shlinkShortUrlVisits',
  summary: "A short URL's visits (Shlink)",
  description: WORDS,
  key: 'header',
  scope: 'stats:read',
  params: Type.Object({ shortCode: Type.String() }),
  querystring: Type.Object(WITH_DOMAIN),
  ok: VISITS_OK,
  problems: [400, 404],
});

export const TAG_VISITS = shlinkSchema({
  operationId: 'shlinkTagVisits',
  summary: "A tag's visits (Shlink)",
  description: `The visits of the short URLs with the tag. ${WORDS}`,
  key: 'header',
  scope: 'stats:read',
  params: Type.Object({ tag: Type.String() }),
  querystring: Type.Object(WITH_DOMAIN),
  ok: VISITS_OK,
  problems: [400, 404],
});

export const DOMAIN_VISITS = shlinkSchema({
  operationId: 'shlinkDomainVisits',
  summary: "A domain's visits (Shlink)",
  description: `The visits of the short URLs on the domain (DEFAULT: the default one). ${WORDS}`,
  key: 'header',
  scope: 'stats:read',
  params: Type.Object({ domain: Type.String() }),
  querystring: Type.Object(VISITS_QUERY),
  ok: VISITS_OK,
  problems: [400, 404],
});

export const NON_ORPHAN_VISITS = shlinkSchema({
  operationId: 'shlinkNonOrphanVisits',
  summary: 'Every visit (Shlink)',
  description: `The visits of every short URL of the workspace. ${WORDS}`,
  key: 'header',
  scope: 'stats:read',
  querystring: Type.Object(WITH_DOMAIN),
  ok: VISITS_OK,
  problems: [400],
});

export const ORPHAN_VISITS = shlinkSchema({
  operationId: 'shlinkOrphanVisits',
  summary: 'Orphan visits (Shlink)',
  description: 'Always an empty list: Snip keeps no visits of unknown codes or of the base URL.',
  key: 'header',
  scope: 'stats:read',
  querystring: Type.Object({
    ...WITH_DOMAIN,
    type: Type.Optional(
      Type.Union(['invalid_short_url', 'base_url', 'regular_404'].map((t) => Type.Literal(t))),
    ),
  }),
  ok: VISITS_OK,
  problems: [400],
});

export const OVERVIEW = shlinkSchema({
  operationId: 'shlinkVisitsOverview',
  summary: 'Visits overview (Shlink)',
  description: "The workspace's visits over all time, deleted links' included; orphan visits are always 0.",
  key: 'header',
  scope: 'stats:read',
  ok: {
    200: okJson(
      Type.Object({ visits: Type.Object({ nonOrphanVisits: SummarySchema, orphanVisits: SummarySchema }) }),
      'The totals.',
    ),
  },
});

export const DELETE_ORPHAN = shlinkSchema({
  operationId: 'shlinkDeleteOrphanVisits',
  summary: 'Delete orphan visits (Shlink)',
  description: 'There are none to delete: always 0.',
  key: 'header',
  scope: 'links:write',
  ok: { 200: okJson(Type.Object({ deletedVisits: Type.Integer() }), 'None deleted.') },
});

export const DELETE_VISITS = shlinkSchema({
  operationId: 'shlinkDeleteShortUrlVisits',
  summary: "Delete a short URL's visits (Shlink)",
  description: "Refused with 501: Snip keeps a link's counts as long as the link.",
  key: 'header',
  scope: 'links:write',
  ok: NEVER_OK,
  problems: [501],
});
