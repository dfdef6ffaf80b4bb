import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { type ApiErrorCode, isApiRefusal, Refusal, UnavailableError } from '../../../core/errors.ts';
import { MAX_BODY_BYTES } from '../../../http/body-parsers.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import type { CreateLinkRequest } from '../create-link.ts';
import type { CreatedLink } from '../link-requests.ts';
import { type CreateOperation, createRouteSchema } from './create-openapi.ts';
import type { CreateBody } from './create-schemas.ts';
import type { EnvelopeRenderer } from './envelope.ts';

export interface CreateRouteOptions {
  path: string;
  createLink: (request: CreateLinkRequest) => Promise<CreatedLink>;
  envelope: EnvelopeRenderer;
  /** Its name, summary and rate window in /openapi.json. */
  operation: CreateOperation;
  /** Told of every answer with its serialized body (the demo log). */
  onAnswered?: (request: FastifyRequest, status: number, payload: string) => void;
}

/** The header wins over the form field; a key is never read from the query string (docs/api.md §2.1). */
export function presentedKey(request: FastifyRequest, body: CreateBody): string | undefined {
  const header = request.headers['x-api-key'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  if (fromHeader !== undefined && fromHeader.trim() !== '') return fromHeader;
  return isJson(request) ? undefined : body.apikey;
}

function isJson(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json');
}

/**
 * Anything wrong with the request's shape is code 300, never a 500: a validation error, a client
 * error status, or any failure while the body was still being read (e.g. a truncated multipart body).
 */
function asRefusal(error: FastifyError, bodyRead: boolean): Refusal<ApiErrorCode> | undefined {
  if (isApiRefusal(error)) return error;
  if (error.validation) return new Refusal('300', `The request body is invalid: ${error.message}`);
  const status = error.statusCode ?? 500;
  if ((status >= 400 && status < 500) || !bodyRead) {
    return new Refusal(
      '300',
      'The request body could not be read: malformed, truncated, or over the limits of its encoding.',
    );
  }
  return undefined;
}

export async function createRoute(app: FastifyInstance, options: CreateRouteOptions): Promise<void> {
  const bodyRead = new WeakSet<FastifyRequest>();
  app.addHook('preHandler', async (request) => {
    bodyRead.add(request);
  });
  const { onAnswered } = options;
  if (onAnswered) {
    app.addHook('onSend', async (request, reply, payload) => {
      if (typeof payload === 'string') onAnswered(request, reply.statusCode, payload);
      return payload;
    });
  }
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const refusal = asRefusal(error, bodyRead.has(request));
    if (refusal) return options.envelope.failed(reply, refusal);
    if (error instanceof UnavailableError) {
      request.log.warn({ err: error }, 'create refused: a dependency is unreachable');
      return options.envelope.unavailable(reply, error);
    }
    request.log.error({ err: error }, 'create failed unexpectedly');
    return options.envelope.internal(reply);
  });

  refuseOtherMethods(app, options.path, ['POST'], (reply) => options.envelope.wrongMethod(reply));
  app.post(
    options.path,
    {
      bodyLimit: MAX_BODY_BYTES,
      schema: createRouteSchema(options.operation),
      // Multipart bodies are streamed past bodyLimit, so their declared size is checked up front.
      onRequest: async (request) => {
        if (!request.headers['content-type']) throw new Refusal('300', 'The request has no Content-Type.');
        if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
          throw new Refusal('300', 'The request body is over 64 KiB.');
        }
      },
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as CreateBody;
      const created = await options.createLink({
        apiKey: presentedKey(request, body),
        url: body.url,
        group: body.group,
        // An empty field is none, as forms send it.
        domain: body.domain === '' ? undefined : body.domain,
        clientAddress: request.ip,
      });
      return options.envelope.created(reply, created.link, created.rate);
    },
  );
}
