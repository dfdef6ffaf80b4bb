import { type TSchema, Type } from '@sinclair/typebox';

/**
 * How /openapi.json shows the Kutt API: its answers, in Kutt's shapes. The request fields are read
 * by the routes themselves (kutt-input.ts), so that a wrong one gets Kutt's own error; the schemas
 * here only describe them, and refuse nothing Kutt would take.
 */

const TAG = 'Kutt compatibility';
const nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);

export const KuttLinkSchema = Type.Object({
  id: Type.String({ description: 'The code; `code@host` for a link on another domain than the default.' }),
  address: Type.String({ description: 'The short code.' }),
  banned: Type.Boolean({ description: 'An operator disabled the link.' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  password: Type.Boolean({ description: 'The link asks for a password.' }),
  description: nullable(Type.String({ description: "The link's title." })),
  expire_in: nullable(Type.String({ format: 'date-time', description: 'When the link expires.' })),
  target: Type.String({ description: 'The long URL.' }),
  visit_count: Type.Integer({ description: 'Human clicks.' }),
  domain: nullable(Type.String({ description: 'The host, or null on the default domain.' })),
  link: Type.String({ description: 'The short URL.' }),
});

const Stat = Type.Array(Type.Object({ name: Type.String(), value: Type.Integer() }));
const Period = Type.Object({
  stats: Type.Object({ browser: Stat, os: Stat, country: Stat, referrer: Stat }),
  views: Type.Array(Type.Integer(), {
    description: 'Human clicks of each hour, day or month, oldest first.',
  }),
  total: Type.Integer(),
});

const KuttStatsSchema = Type.Object({
  lastYear: Period,
  lastDay: Period,
  lastMonth: Period,
  lastWeek: Period,
  updatedAt: Type.String({ format: 'date-time' }),
  ...KuttLinkSchema.properties,
});

const KuttListSchema = Type.Object({
  total: Type.Integer(),
  limit: Type.Integer(),
  skip: Type.Integer(),
  data: Type.Array(KuttLinkSchema),
});

const KuttDomainSchema = Type.Object({
  id: Type.String({ description: 'The host.' }),
  address: Type.String(),
  banned: Type.Boolean(),
  homepage: Type.String(),
});

const KuttUserSchema = Type.Object({
  apikey: Type.String({ description: 'The key the request was sent with.' }),
  email: Type.String({ description: "The workspace's name: a personal workspace's is its owner's email." }),
  domains: Type.Array(KuttDomainSchema),
});

const KuttMessageSchema = Type.Object({ message: Type.String() });

const KuttErrorSchema = Type.Object({ error: Type.String({ description: 'What was wrong, for a person.' }) });

const ERRORS: Record<number, string> = {
  400: 'A field Kutt or Snip refuses, or a request that cannot be read (a NUL character, say).',
  401: 'No key, or one that is not live.',
  403: "The key lacks the scope, or the workspace's link quota is reached.",
  404: 'No link of the workspace has that id.',
  429: 'The hourly window is spent (Retry-After).',
  503: 'The store did not answer in time (Retry-After).',
};

const answer = (schema: TSchema, description: string) => ({ ...schema, description });

const IdParams = Type.Object({
  id: Type.String({ description: 'A link id as the links answer it: its code, or `code@host`.' }),
});

const ListQuery = Type.Object({
  limit: Type.Optional(Type.String({ description: 'Links per page: 1-50, 10 by default.' })),
  skip: Type.Optional(Type.String({ description: 'Links to skip: 0 by default.' })),
  search: Type.Optional(Type.String({ description: 'The target, title or code contains this.' })),
  all: Type.Optional(Type.String({ description: "Ignored: a key sees its workspace's links." })),
});

const LinkBody = Type.Object({
  target: Type.Optional(Type.Unknown({ description: 'The long URL (http:// when it names no scheme).' })),
  description: Type.Optional(Type.Unknown({ description: 'The title.' })),
  expire_in: Type.Optional(
    Type.Unknown({ description: 'A duration from now: "2 minutes", "8h", "42 days".' }),
  ),
  password: Type.Optional(
    Type.Unknown({ description: 'Visitors must give it (Snip: 8 characters at least).' }),
  ),
  customurl: Type.Optional(Type.Unknown({ description: 'The custom code (create).' })),
  address: Type.Optional(Type.Unknown({ description: 'The code (edit): Snip never changes it.' })),
  reuse: Type.Optional(Type.Unknown({ description: 'Answer the link already made for the target.' })),
  domain: Type.Optional(Type.Unknown({ description: "A host of the workspace's domains." })),
});

const DomainBody = Type.Object({
  address: Type.Optional(Type.Unknown({ description: 'The host.' })),
  homepage: Type.Optional(Type.Unknown({ description: 'Ignored.' })),
});

interface Doc {
  operationId: string;
  summary: string;
  description: string;
  ok: Record<number, object>;
  errors: number[];
  keyed?: boolean;
  params?: boolean;
}

/** The schema of one route: documentation, and a response schema for each answer. */
export function kuttDoc(doc: Doc, parts: { querystring?: TSchema; body?: TSchema } = {}) {
  const errors = Object.fromEntries(
    doc.errors.map((status) => [status, answer(KuttErrorSchema, ERRORS[status] ?? 'Refused.')]),
  );
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    description: doc.description,
    tags: [TAG],
    security: doc.keyed === false ? [] : [{ ApiKeyHeader: [] }],
    ...(doc.params ? { params: IdParams } : {}),
    ...parts,
    response: { ...doc.ok, ...errors },
  };
}

export const KUTT_ANSWERS = {
  link: (description: string) => answer(KuttLinkSchema, description),
  list: answer(KuttListSchema, 'A page of links, newest first, and how many there are.'),
  stats: answer(KuttStatsSchema, 'The link with its visits of the last day, week, month and year.'),
  message: (description: string) => answer(KuttMessageSchema, description),
  user: answer(KuttUserSchema, "The key's workspace and its domains."),
  domain: answer(KuttDomainSchema, 'The domain.'),
  health: { description: 'OK', content: { 'text/html': { schema: { type: 'string' } } } },
};

export const KUTT_REQUESTS = { ListQuery, LinkBody, DomainBody };
