import { type TSchema, Type } from '@sinclair/typebox';
import { ProblemSchema } from '../../../http/openapi-parts.ts';
import { MAX_BULK_ITEMS, strictCheck } from '../bulk-checks.ts';
import { CreateLinkBody, LinkSchema, PatchLinkBody } from './link-schemas.ts';

/**
 * The bodies and answer of /api/v1/links/bulk (docs/api.md §16). Each body has two forms: the one
 * /openapi.json shows, naming what every item must be, and the shape fastify checks, which leaves
 * the items to the service so that one bad item is refused at its index (300) and the others still
 * answer. More than 100 items, none, or a body of another shape is a malformed request (300).
 */

const count = { minItems: 1, maxItems: MAX_BULK_ITEMS };

const code = Type.String({ maxLength: 64, description: 'A short code of the workspace.' });

const domain = Type.Optional(
  Type.String({
    maxLength: 1024,
    description:
      'The host of the domain the codes are on, as `?domain=` of a single link (317 for one the ' +
      "workspace does not see); the workspace's default domain without it.",
  }),
);

const codes = (items: TSchema) =>
  Type.Array(items, {
    ...count,
    description: `1-${MAX_BULK_ITEMS} codes; a code that is not a string is that item's 300, an unknown one its 314.`,
  });

export const BulkCreateBody = Type.Array(CreateLinkBody, {
  ...count,
  description:
    `1-${MAX_BULK_ITEMS} bodies of POST /api/v1/links, each checked on its own: an item that is not ` +
    "such a body (a number, null, an array, an unknown field) is that item's 300.",
});

export const BulkEditBody = Type.Object(
  { codes: codes(code), change: PatchLinkBody, domain },
  { additionalProperties: false, description: 'The same change to each link.' },
);

export const BulkDeleteBody = Type.Object(
  { codes: codes(code), domain },
  { additionalProperties: false, description: 'The links to delete.' },
);

/** What fastify checks of each body: the request's shape, never one item's. */
export const BULK_SHAPES = {
  create: strictCheck(Type.Array(Type.Unknown(), count)),
  edit: strictCheck(
    Type.Object(
      { codes: codes(Type.Unknown()), change: PatchLinkBody, domain },
      { additionalProperties: false },
    ),
  ),
  delete: strictCheck(Type.Object({ codes: codes(Type.Unknown()), domain }, { additionalProperties: false })),
};

const BulkItemSchema = Type.Union(
  [
    Type.Object(
      { index: Type.Integer({ minimum: 0 }), link: Type.Ref(LinkSchema) },
      { additionalProperties: false, description: 'Done: the link as it is now (deleted: as it was).' },
    ),
    Type.Object(
      { index: Type.Integer({ minimum: 0 }), error: Type.Ref(ProblemSchema) },
      {
        additionalProperties: false,
        description:
          'Refused or failed: the problem a single request would have answered (its status and code), ' +
          '429 once the hourly window is spent, 500 or 503 when the store failed; nothing of it was written.',
      },
    ),
  ],
  { description: "One item's answer, at the index it had in the request." },
);

export const BulkResultSchema = Type.Object(
  { items: Type.Array(BulkItemSchema, { description: 'Every item, in the order of the request.' }) },
  { additionalProperties: false },
);
