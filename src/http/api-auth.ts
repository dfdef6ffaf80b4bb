import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticated, KeyAuthenticator } from '../core/ports/key-auth.ts';
import type { Scope } from '../core/scopes.ts';
import { rateHeaders } from './rate-headers.ts';

/**
 * Every /api/v1 request is judged by its key before its body is read (docs/api.md §7.1): the
 * failed-key limiter, the key (X-API-Key, or Authorization: Bearer), the account's hourly window,
 * then the scope its route names in `config.scope` (none: any key of the account).
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a management API route needs; undefined: any live key. */
    scope?: Scope;
    /** A route of the management API that anyone may call, without a key (POST /api/v1/reports). */
    keyless?: boolean;
  }
  interface FastifyRequest {
    caller: Authenticated | null;
  }
}

/** X-API-Key wins; else the token of an Authorization: Bearer header; else none. */
export function presentedApiKey(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  if (fromHeader !== undefined && fromHeader.trim() !== '') return fromHeader;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

export function requireApiKeys(app: FastifyInstance, keys: KeyAuthenticator): void {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.keyless) return;
    const caller = await keys.authenticate(
      presentedApiKey(request),
      request.ip,
      request.routeOptions.config.scope,
    );
    reply.headers(rateHeaders(caller.rate));
    request.caller = caller;
  });
}

/** Who acts, for a handler behind requireApiKeys. */
export function callerOf(request: FastifyRequest): Authenticated {
  if (!request.caller) throw new Error('an /api/v1 handler ran without an authenticated caller');
  return request.caller;
}
