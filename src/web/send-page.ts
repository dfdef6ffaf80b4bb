import { createGzip } from 'node:zlib';
import type { FastifyReply } from 'fastify';

/** A page shorter than this goes as it is: a packet's worth gains nothing from gzip. */
const GZIP_FROM = 1400;

/**
 * Sends a rendered page. Pages are never cached: their navigation (or their body) can be personal.
 * A page of some size goes gzipped to a client that accepts it (a list of 200 links is ~130 KiB of
 * HTML, ~15 KiB gzipped); the compression runs on libuv's threads, not the redirect's.
 */
export function sendPage(reply: FastifyReply, status: number, body: string): FastifyReply {
  reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8');
  if (body.length < GZIP_FROM) return reply.send(body);
  reply.header('vary', 'accept-encoding');
  if (!/\bgzip\b/.test(String(reply.request.headers['accept-encoding'] ?? ''))) return reply.send(body);
  const gzipped = createGzip();
  gzipped.end(body);
  return reply.header('content-encoding', 'gzip').send(gzipped);
}
