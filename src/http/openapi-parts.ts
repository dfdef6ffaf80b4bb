import { Type } from '@sinclair/typebox';

/**
 * Pieces of the OpenAPI description every JSON API route shares: the RateLimit-* headers and the
 * problem document (RFC 9457) its refusals and faults are written as.
 */

/** Response headers in @fastify/swagger's form: a schema per header, its description beside the type. */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': {
    type: 'integer',
    description: "Requests the account's keys may make in this clock hour (UTC), all together.",
  },
  'RateLimit-Remaining': { type: 'integer', description: 'Requests left in this window.' },
  'RateLimit-Reset': { type: 'integer', description: 'Seconds until the window resets.' },
} as const;

export const RETRY_AFTER_HEADER = {
  'Retry-After': { type: 'integer', description: 'Seconds to wait before retrying.' },
} as const;

/** An RFC 9457 problem document with Snip's numbered code. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'Always about:blank: the code says what happened.' }),
    title: Type.String({ description: 'The HTTP status in words.' }),
    status: Type.Integer({ description: 'The HTTP status.' }),
    detail: Type.String({ description: 'What was wrong, for a person. Wording may change.' }),
    code: Type.String({
      description: 'The numbered code (see the table above); the HTTP status where none applies.',
    }),
  },
  { $id: 'Problem', description: 'An error, as application/problem+json (RFC 9457).' },
);

/** One problem answer of an operation: its meaning, and the headers it carries. */
export function problemResponse(description: string, headers: Record<string, object> = {}) {
  return {
    description,
    content: { 'application/problem+json': { schema: Type.Ref(ProblemSchema) } },
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
}
