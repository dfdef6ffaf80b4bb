import { type Static, Type } from '@sinclair/typebox';

/** Groups as the management API shows and takes them (docs/api.md §7.2–7.3). */

export const GroupSchema = Type.Object(
  {
    id: Type.Integer(),
    api_id: Type.String(),
    name: Type.String(),
    links: Type.Integer({ minimum: 0, description: 'Live links in the group.' }),
  },
  { $id: 'Group', additionalProperties: false },
);

export type GroupResource = Static<typeof GroupSchema>;

export const GroupListSchema = Type.Object(
  {
    items: Type.Array(Type.Ref(GroupSchema)),
    next_cursor: Type.Null({ description: 'Every group fits one page.' }),
  },
  { $id: 'GroupList', additionalProperties: false },
);

export const GroupParams = Type.Object({
  id: Type.Integer({ minimum: 1, description: "The group's numeric ID." }),
});

export const CreateGroupBody = Type.Object(
  {
    name: Type.String({ maxLength: 400, description: '1-100 characters.' }),
    api_id: Type.Optional(
      Type.String({ maxLength: 256, description: 'A lower-case slug; derived from the name when left out.' }),
    ),
  },
  { additionalProperties: false },
);

export const PatchGroupBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 400 })),
    api_id: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** Shared schemas, added on the root instance so /openapi.json lists them as components. */
export const GROUP_SCHEMAS = [GroupSchema, GroupListSchema];
