import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { DAY_MS } from '../../core/days.ts';
import { refuseOtherMethods } from '../../http/method-guard.ts';

/** A week: the script changes only with CONVERSION_WINDOW_DAYS; revalidation by ETag after that. */
const MAX_AGE_S = 604_800;

/**
 * The merchant's page loads /snip.js (docs/api.md §20): it keeps `snip_id` of the page's address in
 * a first-party cookie of the merchant's site for the window's days (SameSite=Lax, Secure on
 * https), so the merchant's backend reads it at sign-up. `data-domain` on the script tag widens the
 * cookie to a parent domain (app. and www. of one site). Snip sets no cookie of its own here.
 */
export function snipScript(windowDays: number): string {
  const maxAge = Math.round((windowDays * DAY_MS) / 1000);
  return (
    '(function(){try{' +
    'var m=/[?&]snip_id=([A-Za-z0-9_-]{22,64})(?:[&#]|$)/.exec(location.search);if(!m)return;' +
    "var s=document.currentScript,d=s&&s.getAttribute('data-domain');" +
    `document.cookie='snip_id='+m[1]+'; Max-Age=${maxAge}; Path=/; SameSite=Lax'` +
    "+(d?'; Domain='+d:'')+(location.protocol==='https:'?'; Secure':'')" +
    '}catch(e){}})();\n'
  );
}

export async function snipJsRoute(app: FastifyInstance, { windowDays }: { windowDays: number }) {
  const body = snipScript(windowDays);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  app.get('/snip.js', { schema: { hide: true } }, async (request, reply) => {
    reply
      .header('cache-control', `public, max-age=${MAX_AGE_S}`)
      .header('etag', etag)
      // Loaded by pages of other sites: a script tag needs no CORS, but a CORP policy would block it.
      .header('cross-origin-resource-policy', 'cross-origin')
      .type('text/javascript; charset=utf-8');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(body);
  });
  refuseOtherMethods(app, '/snip.js', ['GET', 'HEAD']);
}
