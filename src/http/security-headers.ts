import type { FastifyInstance } from 'fastify';

/**
 * Pages run only our own script and style, are never framed, and types are never sniffed. A page
 * whose renderer writes its own <style> elements (the API reference) names a fresh nonce they carry;
 * no page allows inline style or script at large.
 */
export function pagePolicy(
  options: { styleNonce?: string; formAction?: string; imagesFromAnyHttps?: boolean } = {},
): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    options.styleNonce ? `style-src 'self' 'nonce-${options.styleNonce}'` : "style-src 'self'",
    options.imagesFromAnyHttps ? "img-src 'self' data: https:" : "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action ${options.formAction ?? "'self'"}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

const PAGE_POLICY = pagePolicy();

/** Behind https every answer tells browsers to stay on https for a year, subdomains included. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** The headers every answer carries, as a flat name/value list (the redirect's fast path writes them as is). */
export function everyAnswerHeaders(https: boolean): string[] {
  return https
    ? ['x-content-type-options', 'nosniff', 'strict-transport-security', HSTS]
    : ['x-content-type-options', 'nosniff'];
}

/** What an HTML page answered below the router carries besides: the page policy, no framing. */
export function pageAnswerHeaders(https: boolean): string[] {
  return [
    ...everyAnswerHeaders(https),
    'content-security-policy',
    PAGE_POLICY,
    'x-frame-options',
    'DENY',
    'referrer-policy',
    'same-origin',
  ];
}

export function addSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    if (options.https) reply.header('strict-transport-security', HSTS);
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html')) {
      // A page that set its own policy (pagePolicy with a nonce) keeps it.
      if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', PAGE_POLICY);
      reply.header('x-frame-options', 'DENY').header('referrer-policy', 'same-origin');
    }
    return payload;
  });
}
