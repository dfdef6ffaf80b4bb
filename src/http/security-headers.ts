import type { FastifyInstance } from 'fastify';

/** Pages run only our own script and style, are never framed, and types are never sniffed. */
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function addSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html')) {
      reply
        .header('content-security-policy', PAGE_POLICY)
        .header('x-frame-options', 'DENY')
        .header('referrer-policy', 'same-origin');
    }
    return payload;
  });
}
