import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UnavailableError } from '../core/errors.ts';
import { sendProblem } from './problem.ts';

/** 503 with Retry-After: a backing service cannot answer now, so the request was not judged. */
export function sendUnavailable(
  request: FastifyRequest,
  reply: FastifyReply,
  error: UnavailableError,
): FastifyReply {
  request.log.warn({ err: error }, 'unavailable: a dependency did not answer');
  reply.header('retry-after', String(error.retryAfterSeconds));
  return sendProblem(reply, {
    status: 503,
    title: 'Service Unavailable',
    detail: 'A service Snip depends on cannot answer right now; retry after Retry-After seconds.',
    code: '503',
  });
}

/**
 * What a JSON route answers when its handler fails: a problem document — 503 with Retry-After when a
 * backing service cannot answer now, the 4xx of a request that could not be read, else 500 — never
 * fastify's default body. Set once per scope of JSON routes.
 */
export function answerErrorsAsProblems(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof UnavailableError) return sendUnavailable(request, reply, error);
    const status =
      error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    if (status === 500) request.log.error({ err: error }, 'request failed');
    return sendProblem(reply, {
      status,
      title: status === 500 ? 'Internal Server Error' : 'Bad Request',
      detail:
        status === 500 ? 'Something went wrong on our side; try again.' : 'The request could not be read.',
      code: String(status),
    });
  });
}
