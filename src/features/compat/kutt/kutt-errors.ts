import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ApiErrorCode, isApiRefusal, Refusal, UnavailableError } from '../../../core/errors.ts';
import { rateHeaders } from '../../../http/rate-headers.ts';

/**
 * Kutt's error form (docs/api.md §15): `{"error": "…"}` with Kutt's status, for every refusal of
 * Snip, every request that cannot be read and every fault. Kutt sends some of these (a link not
 * found, a custom URL in use) as 500; Snip answers 404 and 400, keeping 500 for its own faults.
 */

/** An answer in Kutt's error form, thrown by the routes and rendered by the error handler. */
export class KuttError extends Error {
  override name = 'KuttError';
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export const kuttError = (status: number, message: string) => new KuttError(status, message);

/** Kutt's status for each of Snip's codes, with Kutt's wording where Kutt has its own. */
const REFUSALS: Record<ApiErrorCode, { status: number; text?: string }> = {
  '300': { status: 400 },
  '301': { status: 401, text: 'Unauthorized.' },
  '302': { status: 400, text: 'Target is missing.' },
  '303': { status: 401, text: 'API key is not correct.' },
  '304': { status: 403 },
  '305': { status: 400 },
  '306': { status: 400 },
  '307': { status: 400 },
  '308': { status: 400 },
  '309': { status: 400 },
  '310': { status: 400 },
  '311': { status: 400 },
  '312': { status: 400 },
  '313': { status: 400, text: 'Custom URL is already in use.' },
  '314': { status: 404, text: 'Link could not be found.' },
  '315': { status: 403 },
  '316': { status: 400 },
  '317': { status: 400, text: "You can't use this domain." },
  '318': { status: 400 },
  '319': { status: 400 },
  '320': { status: 400 },
  '321': { status: 404 },
  '322': { status: 404 },
  '429': { status: 429, text: 'Too many requests, please try again later.' },
};

interface KuttAnswer {
  status: number;
  error: string;
  headers: Record<string, string>;
}

/** The query fields Kutt names in its own error for a value of the wrong type. */
const QUERY_FIELDS = new Set(['limit', 'skip', 'search']);

function validationText(error: FastifyError): string {
  const field = error.validation?.[0]?.instancePath.replace(/^\//, '').split('/')[0] ?? '';
  if (error.validationContext === 'querystring' && QUERY_FIELDS.has(field))
    return `${field} query is not valid.`;
  if (error.validationContext === 'params') return 'ID is invalid.';
  return `The request is not valid: ${error.message}.`;
}

function refusalAnswer(refusal: Refusal): KuttAnswer {
  const headers = rateHeaders(refusal.facts.rate);
  if (refusal.facts.retryAfterSeconds !== undefined) {
    headers['retry-after'] = String(refusal.facts.retryAfterSeconds);
  }
  if (isApiRefusal(refusal)) {
    const known = REFUSALS[refusal.code];
    return { status: known.status, error: known.text ?? refusal.message, headers };
  }
  // The sign-in codes only reach the APIs that take a password; Kutt's users are refused as banned.
  const status = refusal.code === 'account-suspended' ? 403 : 401;
  return { status, error: refusal.message, headers };
}

/** What an error thrown anywhere in the Kutt API answers. */
export function kuttAnswerOf(error: unknown): KuttAnswer {
  if (error instanceof KuttError) return { status: error.status, error: error.message, headers: {} };
  if (error instanceof Refusal) return refusalAnswer(error);
  if (error instanceof UnavailableError) {
    return {
      status: 503,
      error: 'A service Snip depends on cannot answer right now; retry after Retry-After seconds.',
      headers: { 'retry-after': String(error.retryAfterSeconds) },
    };
  }
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.validation) {
    return { status: 400, error: validationText(fastifyError as FastifyError), headers: {} };
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, error: 'The request could not be read.', headers: {} };
  }
  return { status: 500, error: 'An error occurred.', headers: {} };
}

export function sendKuttError(reply: FastifyReply, error: unknown): FastifyReply {
  const answer = kuttAnswerOf(error);
  return reply.code(answer.status).headers(answer.headers).send({ error: answer.error });
}

/** Every refusal, unreadable request and fault of the scope, and every unknown path, in Kutt's form. */
export function answerKuttErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply) => {
    const answer = kuttAnswerOf(error);
    if (answer.status === 500) request.log.error({ err: error }, 'request failed');
    if (answer.status === 503) request.log.warn({ err: error }, 'unavailable: a dependency did not answer');
    return reply.code(answer.status).headers(answer.headers).send({ error: answer.error });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'Not found.' }));
}
