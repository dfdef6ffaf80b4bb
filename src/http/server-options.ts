import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type FastifyServerOptions, LogController } from 'fastify';
import { MAX_BODY_BYTES } from './body-parsers.ts';

export interface ServerOptions {
  /** false, or the number of proxy hops whose X-Forwarded-For is believed. */
  trustProxy: false | number;
  logger: FastifyServerOptions['logger'];
  /** Answers a request on the socket before the router, or returns false to pass it on. */
  beforeRouter: (req: IncomingMessage, res: ServerResponse) => boolean;
}

/** Fastify's options: body limit, strict validation, quiet request logging, and the hot path first. */
export function serverOptions(options: ServerOptions): FastifyServerOptions {
  return {
    logger: options.logger ?? false,
    // A hop count: only the addresses the operator's own proxies appended are believed (proxy-addr semantics).
    trustProxy: options.trustProxy as FastifyServerOptions['trustProxy'],
    bodyLimit: MAX_BODY_BYTES,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    // No per-request info lines on the hot path; errors are still logged, with keys redacted.
    logController: new LogController({ disableRequestLogging: true }),
    serverFactory: (handler) =>
      createServer((req, res) => {
        if (!options.beforeRouter(req, res)) handler(req, res);
      }),
  };
}
