import type { FastifyReply } from 'fastify';

/** Sends a rendered page. Pages are never cached: their navigation (or their body) can be personal. */
export function sendPage(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
}
