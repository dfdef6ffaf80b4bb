import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { type ApiErrorCode, isApiErrorCode, Refusal, UnavailableError } from '../core/errors.ts';
import { API_STATUS } from './api-statuses.ts';
import { STATUS_CODES } from './node-http.ts';
import { sendProblem } from './problem.ts';
import { sendUnavailable } from './problem-errors.ts';
import { rateHeaders } from './rate-headers.ts';

/**
 * How the management API answers what it refuses (docs/api.md §7.1): application/problem+json with
 * the numbered code, RateLimit-* once a key spent its window, Retry-After when waiting helps. Never
 * fastify's default body, never a 500 for a request it could not read.
 */

/** The services shared with the pages speak the pages' codes; the API says the same with its numbers. */
const PAGE_CODES: Readonly<Record<string, ApiErrorCode>> = {
  'group-name-invalid': '300',
  'group-api-id-invalid': '300',
  'api-id-taken': '313',
  'not-found': '314',
  forbidden: '315',
  'scope-too-wide': '315',
  'no-such-member': '314',
  'role-invalid': '300',
  'email-invalid': '300',
  'already-member': '300',
};

/** The numbered code a refusal answers with on the API: its own, or the number of a page's word. */
export function apiCodeOf(refusal: Refusal): ApiErrorCode | undefined {
  return isApiErrorCode(refusal.code) ? refusal.code : PAGE_CODES[refusal.code];
}

export function sendRefusal(
  reply: FastifyReply,
  code: ApiErrorCode,
  detail: string,
  refusal?: Refusal,
): FastifyReply {
  const status = API_STATUS[code];
  reply.headers(rateHeaders(refusal?.facts.rate));
  if (refusal?.facts.retryAfterSeconds !== undefined)
    reply.header('retry-after', String(refusal.facts.retryAfterSeconds));
  return sendProblem(reply, { status, title: STATUS_CODES[status] ?? 'Error', detail, code });
}

/** Why a body could not be read, in the words of fastify's parser error: each cause its own sentence. */
const UNREADABLE: Readonly<Record<string, string>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The body is over 64 KiB.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The body must be JSON (Content-Type: application/json).',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The body is empty although its Content-Type says JSON.',
};

function unreadableDetail(error: FastifyError): string {
  return UNREADABLE[error.code] ?? 'The request could not be read: send JSON of at most 64 KiB.';
}

export function answerApiErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof Refusal) {
      const code = apiCodeOf(error);
      if (code) return sendRefusal(reply, code, error.message, error);
    }
    if (error instanceof UnavailableError) return sendUnavailable(request, reply, error);
    if (error.validation) {
      const where = error.validationContext ?? 'request';
      return sendRefusal(reply, '300', `The ${where} is invalid: ${error.message}`);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendRefusal(reply, '300', unreadableDetail(error));
    }
    request.log.error({ err: error }, 'request failed');
    return sendProblem(reply, {
      status: 500,
      title: 'Internal Server Error',
      detail: 'Something went wrong on our side; try again.',
      code: '500',
    });
  });

  app.setNotFoundHandler((_request, reply) =>
    sendProblem(reply, {
      status: 404,
      title: 'Not Found',
      detail: 'The API has no such endpoint.',
      code: '404',
    }),
  );
}
