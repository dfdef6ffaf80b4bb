/**
 * Answers the server gives in fastify's own error body rather than a route's: a request that could
 * not be read as HTTP, and faults of routes that set no error handler of their own. Routes that read
 * nothing from the request but its path document the first as their 4xx answer.
 */

const FastifyErrorSchema = {
  type: 'object',
  description: "The server's own error body (not a problem document).",
  properties: {
    statusCode: { type: 'integer', description: 'The HTTP status.' },
    code: { type: 'string', description: 'An internal error name, when there is one.' },
    error: { type: 'string', description: 'The HTTP status in words.' },
    message: { type: 'string', description: 'What was wrong, for a person. Wording may change.' },
  },
  required: ['statusCode', 'error', 'message'],
} as const;

/** An answer written in fastify's error body; `description` says when it happens. */
export function serverErrorResponse(description: string) {
  return { description, content: { 'application/json': { schema: FastifyErrorSchema } } };
}

/**
 * The 4xx any route can answer before its own code runs: a malformed request line or header, no
 * Host, headers over the size limit (431), a path that is not valid percent-encoding (400).
 */
export function unreadableRequestResponse() {
  return serverErrorResponse(
    'The request could not be read as HTTP: a malformed request line or header, no Host, headers over ' +
      'the size limit (431), or a path that is not valid percent-encoding (400). Answered before the ' +
      'route, with this body or none.',
  );
}
