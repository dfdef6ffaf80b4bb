import type { FastifyInstance } from 'fastify';
import { anonymizeAddress } from '../core/anonymize.ts';

/**
 * One JSON access line per request (docs/api.md §10): its id, method, route pattern, status,
 * duration and the client's network. Never a header, a key, a cookie, a body or the query string:
 * the route is the pattern (`/dashboard/links/:code`), not the address asked for. Redirects and
 * misses (`quiet` routes, and requests no route matched) are logged only at debug.
 */
export function logAccess(app: FastifyInstance, options: { quiet: ReadonlySet<string> }): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    const line = {
      method: request.method,
      route: route ?? null,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      client: anonymizeAddress(request.ip),
    };
    if (route === undefined || options.quiet.has(route)) request.log.debug(line, 'request');
    else request.log.info(line, 'request');
  });
}
