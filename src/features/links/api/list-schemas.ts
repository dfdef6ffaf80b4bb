import { type Static, Type } from '@sinclair/typebox';
import { MAX_TAG_LENGTH } from '../../../core/link-fields.ts';

/** GET /api/v1/links's parameters (docs/api.md §7.3, §18.1); an unknown value is 300. */

const oneOf = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    { description },
  );

export const LINK_SORTS = ['created', 'clicks', 'last_click', 'title'] as const;
export const LINK_STATES = ['active', 'archived', 'expired', 'disabled', 'broken', 'all'] as const;
const tagFilter = Type.String({ maxLength: MAX_TAG_LENGTH * 4 });

export const ListLinksQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          'A code prefix, a short URL pasted whole (that link only), or text within the title, the ' +
          'long URL or a tag; case-insensitive.',
      }),
    ),
    group: Type.Optional(
      Type.String({ maxLength: 64, description: "A group's numeric ID or API identifier." }),
    ),
    tag: Type.Optional(
      Type.Union([tagFilter, Type.Array(tagFilter, { maxItems: 20 })], {
        description: 'Only links with this tag; repeat it for links with every one of them.',
      }),
    ),
    state: Type.Optional(
      oneOf(
        LINK_STATES,
        'active (neither archived, expired nor disabled), archived, expired (past expires_at or ' +
          'max_clicks), disabled, broken (its targets failed two checks in a row, §21), all. Without it, ' +
          'every link that is not archived.',
      ),
    ),
    sort: Type.Optional(
      oneOf(LINK_SORTS, 'created (default), clicks, last_click (never clicked counts as oldest), title.'),
    ),
    order: Type.Optional(
      oneOf(['desc', 'asc'], 'desc (default) or asc; links of equal value by their id, the same way.'),
    ),
    expired: Type.Optional(
      Type.Boolean({ description: 'Only links past their expires_at, or only the others.' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(
      Type.String({
        maxLength: 8192,
        description: 'next_cursor of the previous page, with the same sort and order (else 300).',
      }),
    ),
    domain: Type.Optional(
      Type.String({ maxLength: 1024, description: 'Only the links on this domain (host).' }),
    ),
  },
  { additionalProperties: false },
);

export type ListLinksQueryType = Static<typeof ListLinksQuery>;
