import type { IncomingMessage, ServerResponse } from 'node:http';
import { type FastifyServerOptions, LogController } from 'fastify';
import { MAX_BODY_BYTES } from './body-parsers.ts';
import { createServer } from './node-http.ts';
import { lazyValidators, sharedSerializers } from './shared-compilers.ts';

export interface ServerOptions {
  /** false, or the number of proxy hops whose X-Forwarded-For is believed. */
  trustProxy: false | number;
  logger: FastifyServerOptions['logger'];
  /** Answers a request on the socket before the router, or returns false to pass it on. */
  beforeRouter: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Open sockets at most (MAX_CONNECTIONS); more are closed as they come. */
  maxConnections: number;
}

/**
 * How long a client may take (docs/api.md §10): the request's headers within 10 s, the whole request
 * within 30 s, and an idle keep-alive connection is closed after 5 s. Checked every second, so a
 * slow client is let go soon after its deadline.
 */
export const CLIENT_DEADLINES = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
} as const;

/**
 * The trust function of `hops` proxies in front (TRUST_PROXY): the socket's peer and the last
 * hops - 1 X-Forwarded-For entries are proxies, the entry before them is the client. Clients must
 * not reach the server around the proxies (ADR 011).
 */
export function trustHops(hops: false | number): false | ((address: string, index: number) => boolean) {
  if (hops === false || hops <= 0) return false;
  return (_address, index) => index < hops;
}

/**
 * An absolute-form request line (`GET http://host/path`) names its host itself, which wins over the
 * Host header (RFC 9112 §3.2.2): the request goes on as the origin form to that host, so the
 * domain it reaches is decided as for any other request.
 */
export function originForm(req: IncomingMessage): void {
  let target: URL;
  try {
    target = new URL(req.url as string);
  } catch {
    return;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return;
  req.headers.host = target.host;
  req.url = `${target.pathname}${target.search}`;
}

/** Fastify's options: body limit, strict validation, quiet request logging, and the hot path first. */
export function serverOptions(options: ServerOptions): FastifyServerOptions {
  return {
    logger: options.logger ?? false,
    // A hop count: only the addresses the operator's own proxies appended are believed. Given as a
    // function: fastify reads a bare number as "trust nothing" (it cannot check the peer), which
    // would make every client the proxy's address and share one bucket of every per-address limit.
    trustProxy: trustHops(options.trustProxy),
    bodyLimit: MAX_BODY_BYTES,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    schemaController: {
      compilersFactory: { buildValidator: lazyValidators(), buildSerializer: sharedSerializers() },
    },
    // No per-request info lines on the hot path; errors are still logged, with keys redacted.
    logController: new LogController({ disableRequestLogging: true }),
    // fastify's own timeout options do not reach a server it did not make: they are set here.
    serverFactory: (handler) => {
      const server = createServer(CLIENT_DEADLINES, (req, res) => {
        if (req.url !== undefined && req.url.charCodeAt(0) !== 47) originForm(req);
        if (!options.beforeRouter(req, res)) handler(req, res);
      });
      server.maxConnections = options.maxConnections;
      return server;
    },
  };
}
