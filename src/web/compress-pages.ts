import { createGzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/** A page shorter than this goes as it is: a packet's worth gains nothing from gzip. */
const GZIP_FROM = 1400;

/**
 * Pages of some size go gzipped to a client that accepts it (a list of 200 links is ~130 KiB of
 * HTML, ~15 KiB gzipped), on libuv's threads rather than the redirect's. Added after the theme's
 * hook (web/theme.ts), which writes into the page's text; the hot redirect answers below the
 * router and never meets it.
 */
export function compressPages(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || payload.length < GZIP_FROM) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
    reply.header('vary', 'accept-encoding');
    if (reply.hasHeader('content-encoding')) return payload;
    if (!/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return payload;
    const gzipped = createGzip();
    gzipped.end(payload);
    reply.header('content-encoding', 'gzip').removeHeader('content-length');
    return gzipped;
  });
}
