import { Type } from '@sinclair/typebox';
import { ROLES } from '../../../core/authorization.ts';

/** The members and invitations of the management API (docs/api.md §11). */

const Role = Type.Union(
  ROLES.map((role) => Type.Literal(role)),
  { description: 'owner, admin, member or viewer' },
);

export const MemberSchema = Type.Object(
  {
    email: Type.String(),
    role: Role,
    joined_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Member', additionalProperties: false },
);

export const MemberListSchema = Type.Object(
  { items: Type.Array(Type.Ref('Member')), next_cursor: Type.Null() },
  { $id: 'MemberList', additionalProperties: false },
);

export const InvitationSchema = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    role: Role,
    url: Type.Optional(
      Type.String({ description: 'The single-use link; given only when the invitation is made.' }),
    ),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Invitation', additionalProperties: false },
);

export const InvitationListSchema = Type.Object(
  { items: Type.Array(Type.Ref('Invitation')), next_cursor: Type.Null() },
  { $id: 'InvitationList', additionalProperties: false },
);

export const MemberParams = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) });
export const InvitationParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
export const PatchMemberBody = Type.Object(
  { role: Type.String({ maxLength: 20 }) },
  { additionalProperties: false },
);
export const CreateInvitationBody = Type.Object(
  { email: Type.String({ maxLength: 254 }), role: Type.String({ maxLength: 20 }) },
  { additionalProperties: false },
);

export const MEMBER_SCHEMAS = [MemberSchema, MemberListSchema, InvitationSchema, InvitationListSchema];
