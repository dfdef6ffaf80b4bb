import type { FastifyError, FastifyInstance } from 'fastify';
import { UnavailableError } from '../core/errors.ts';
import { messagePage } from './message-page.ts';
import { sendPage } from './send-page.ts';

/**
 * What a page answers when its handler fails: a request that could not be read is a 4xx page, a
 * backing service that cannot answer now a 503 page with Retry-After, a fault of ours a 500 page —
 * never a bare JSON error. Set once per scope of pages.
 */
export function answerErrorsAsPages(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof UnavailableError) {
      request.log.warn({ err: error }, 'page unavailable: a dependency did not answer');
      reply.header('retry-after', String(error.retryAfterSeconds));
      const message = 'Snip cannot reach its storage right now. Try again in a few seconds.';
      return sendPage(
        reply,
        503,
        messagePage({ title: 'Try again shortly', error: { code: '503', message } }),
      );
    }
    const status =
      error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    if (status === 500) request.log.error({ err: error }, 'page failed');
    const message =
      status === 500 ? 'Something went wrong on our side. Try again.' : 'The request could not be read.';
    return sendPage(
      reply,
      status,
      messagePage({
        title: status === 500 ? 'Server error' : 'Bad request',
        error: { code: String(status), message },
      }),
    );
  });
}

/** A scope of pages, not API: its routes stay out of /openapi.json and its errors answer as pages. */
export function pageScope(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  answerErrorsAsPages(app);
}
