import type { FastifyInstance } from 'fastify';

/**
 * Shlink's web client runs in the browser on another origin, so the API answers cross-origin
 * requests as Shlink does by default: any origin, no credentials (the key travels in a header, never
 * a cookie). A preflight is answered before the key is asked for, as the browser sends none with it.
 */

const METHODS = 'GET,POST,PUT,PATCH,DELETE';
const MAX_AGE = '3600';

export function answerCrossOrigin(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.origin === undefined) return;
    reply.header('access-control-allow-origin', '*');
    if (request.method !== 'OPTIONS') return;
    const asked = request.headers['access-control-request-headers'];
    reply.code(204).header('access-control-allow-methods', METHODS).header('access-control-max-age', MAX_AGE);
    if (asked) reply.header('access-control-allow-headers', asked);
    return reply.send();
  });
}
