import { Type } from '@sinclair/typebox';
import { okJson, PaginationSchema, shlinkSchema, TagInfoSchema } from './shlink-schemas.ts';

/** How /openapi.json shows Shlink's tag operations (documentation only: see shlink-schemas.ts). */

const listQuery = (orders: string) =>
  Type.Object({
    page: Type.Optional(Type.Integer({ description: 'From 1.' })),
    itemsPerPage: Type.Optional(Type.Integer({ description: 'Absent or negative: every tag.' })),
    searchTerm: Type.Optional(Type.String({ description: 'Part of the tag (any case).' })),
    orderBy: Type.Optional(Type.String({ description: `\`field-ASC\` or \`field-DESC\` of ${orders}.` })),
  });

export const LIST_TAGS = shlinkSchema({
  operationId: 'shlinkListTags',
  summary: 'List tags (Shlink)',
  description: "The tags of the workspace's live links, by name.",
  key: 'header',
  scope: 'links:read',
  querystring: listQuery('tag'),
  ok: {
    200: okJson(
      Type.Object({ tags: Type.Object({ data: Type.Array(Type.String()), pagination: PaginationSchema }) }),
      'One page of tags.',
    ),
  },
  problems: [400],
});

export const TAG_STATS = shlinkSchema({
  operationId: 'shlinkTagsStats',
  summary: 'Tags with their counts (Shlink)',
  description: 'Each tag with how many live links carry it and their visits.',
  key: 'header',
  scope: 'links:read',
  querystring: listQuery('tag, shortUrlsCount, visits, nonBotVisits'),
  ok: {
    200: okJson(
      Type.Object({ tags: Type.Object({ data: Type.Array(TagInfoSchema), pagination: PaginationSchema }) }),
      'One page of tags.',
    ),
  },
  problems: [400],
});

export const RENAME_TAG = shlinkSchema({
  operationId: 'shlinkRenameTag',
  summary: 'Rename a tag (Shlink)',
  description: 'Renames the tag on every link of the workspace.',
  key: 'header',
  scope: 'links:write',
  body: Type.Object({ oldName: Type.String(), newName: Type.String() }),
  ok: { 204: { description: 'Renamed.' } },
  problems: [400, 404, 409],
});

export const DELETE_TAGS = shlinkSchema({
  operationId: 'shlinkDeleteTags',
  summary: 'Delete tags (Shlink)',
  description: 'Takes the tags off every link of the workspace; the links stay.',
  key: 'header',
  scope: 'links:write',
  querystring: Type.Object({
    'tags[]': Type.Array(Type.String(), {
      description: 'The tags (also read as `tags[0]=`, `tags[1]=` or `tags=` repeated).',
    }),
  }),
  ok: { 204: { description: 'Deleted.' } },
  problems: [400],
});
