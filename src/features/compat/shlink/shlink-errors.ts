import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { Refusal, UnavailableError } from '../../../core/errors.ts';
import {
  invalidData,
  problemBody,
  type ShlinkError,
  ShlinkError as ShlinkErrorClass,
} from './shlink-problems.ts';
import { refusalProblem } from './shlink-refusals.ts';

/**
 * Every answer of the Shlink API that is not a success is a problem document as Shlink writes
 * them: a refusal, a request that could not be read, a dependency that did not answer, a route
 * that does not exist, a fault. Never fastify's default body, never a 500 for bad input.
 */

export function sendShlinkProblem(reply: FastifyReply, error: ShlinkError): FastifyReply {
  return reply
    .code(error.problem.status)
    .headers(error.headers)
    .type('application/problem+json')
    .send(problemBody(error.problem));
}

/** The field of a validation error's path: `body.title` → `title`, `querystring.tags[1]` → `tags`. */
function fieldOf(path: string | undefined): string[] {
  const field = (path ?? '').replace(/^\/?(body|querystring|params)?[./]?/, '').split(/[./[]/)[0];
  return field ? [field] : [];
}

function malformedBody(status: number): ShlinkError {
  return new ShlinkErrorClass({
    status,
    type: 'malformed-request-body',
    title: 'Malformed request body',
    detail: 'Provided request does not contain a valid JSON body.',
    extra: { code: '300' },
  });
}

function unavailable(error: UnavailableError): ShlinkError {
  return new ShlinkErrorClass(
    {
      status: 503,
      type: 'service-unavailable',
      title: 'Service unavailable',
      detail: 'A service Snip depends on cannot answer right now; retry after Retry-After seconds.',
      extra: { code: '503' },
    },
    { 'retry-after': String(error.retryAfterSeconds) },
  );
}

const INTERNAL = new ShlinkErrorClass({
  status: 500,
  type: 'internal-server-error',
  title: 'Internal Server Error',
  detail: 'Something went wrong on our side; try again.',
  extra: { code: '500' },
});

export function answerShlinkErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ShlinkErrorClass) return sendShlinkProblem(reply, error);
    if (error instanceof Refusal) return sendShlinkProblem(reply, refusalProblem(error));
    if (error instanceof UnavailableError) {
      request.log.warn({ err: error }, 'unavailable: a dependency did not answer');
      return sendShlinkProblem(reply, unavailable(error));
    }
    if (error.validation) {
      return sendShlinkProblem(reply, invalidData(fieldOf(error.validation[0]?.instancePath)));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendShlinkProblem(reply, malformedBody(status));
    request.log.error({ err: error }, 'request failed');
    return sendShlinkProblem(reply, INTERNAL);
  });

  app.setNotFoundHandler((request, reply) =>
    sendShlinkProblem(
      reply,
      new ShlinkErrorClass({
        status: 404,
        type: 'not-found',
        title: 'Not Found',
        detail: `Cannot ${request.method} ${request.url.split('?')[0]}!`,
      }),
    ),
  );
}
