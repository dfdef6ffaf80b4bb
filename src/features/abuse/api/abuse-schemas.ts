import { Type } from '@sinclair/typebox';
import { REPORT_COMMENT_MAX, REPORT_REASONS } from '../../../core/moderation.ts';

/** Reports and the audit log in the API (docs/api.md §13). */

export const ReportBody = Type.Object(
  {
    url: Type.String({ description: 'The short URL reported (of this Snip, any of its domains).' }),
    reason: Type.String({ enum: [...REPORT_REASONS], description: 'Why it is reported.' }),
    comment: Type.Optional(
      Type.String({ description: `What the reporter saw; at most ${REPORT_COMMENT_MAX} characters.` }),
    ),
    email: Type.Optional(Type.String({ description: 'The reporter’s, if they want an answer.' })),
  },
  { additionalProperties: false },
);

export const ReportCreatedSchema = Type.Object(
  { id: Type.Integer({ description: 'The report’s number in the operators’ queue.' }) },
  { $id: 'ReportCreated', additionalProperties: false },
);

const change = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);

export const AuditEntrySchema = Type.Object(
  {
    id: Type.Integer(),
    at: Type.String({ format: 'date-time' }),
    actor: Type.String({ description: 'The email of who acted, or "cli" for the operator’s command line.' }),
    action: Type.String({
      description: 'What was done: member.role, key.create, domain.add, link.disable, …',
    }),
    target: Type.String({ description: 'What it was done to: an email, a key’s name, a host, a code.' }),
    workspace: Type.Union([Type.String(), Type.Null()], { description: 'The workspace’s slug.' }),
    before: change,
    after: change,
  },
  { $id: 'AuditEntry', additionalProperties: false },
);

export const AuditPageSchema = Type.Object(
  {
    items: Type.Array(Type.Ref(AuditEntrySchema)),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'AuditPage', additionalProperties: false },
);

export const AuditQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
);

export const ABUSE_SCHEMAS = [ReportCreatedSchema, AuditEntrySchema, AuditPageSchema];
