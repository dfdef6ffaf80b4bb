import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import { Refusal } from '../../../core/errors.ts';
import type { Authenticated, KeyAuthenticator } from '../../../core/ports/key-auth.ts';
import type { Scope } from '../../../core/scopes.ts';
import { rateHeaders } from '../../../http/rate-headers.ts';
import { refusalProblem } from './shlink-refusals.ts';

/**
 * Shlink's API keys are Snip keys (docs/migrating/shlink.md): every /rest/v3 request is judged by
 * the key in X-Api-Key (any case of the name), or in `apiKey` on GET /short-urls/shorten, before
 * its body is read; the route's scope, the failed-key limiter and the hourly window apply as on
 * /api/v1. Health needs no key, as on Shlink.
 */

/** What a route asks of its key: a scope (undefined: any live key), or none at all. */
export interface KeyNeed {
  scope: Scope | undefined;
  keyless?: boolean;
  /** The key comes in the `apiKey` query parameter instead of the header. */
  inQuery?: boolean;
  /** A tag change, whose missing scope is Shlink's forbidden-tag-operation. */
  tagOperation?: 'rename' | 'delete';
}

const callers = new WeakMap<FastifyRequest, Authenticated>();
/** Where a route's config carries its need: a symbol, so it meets no other config of the app. */
const NEED = Symbol('shlink key need');

/** The route config that tells the hook what the route's key must allow. */
export function keyNeed(need: KeyNeed): FastifyContextConfig {
  return { [NEED]: need } as FastifyContextConfig;
}

const nonEmpty = (value: unknown): string | undefined => {
  const one = Array.isArray(value) ? value.at(-1) : value;
  return typeof one === 'string' && one.trim() !== '' ? one : undefined;
};

export function requireShlinkKeys(app: FastifyInstance, keys: KeyAuthenticator): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return;
    const need = (request.routeOptions.config as { [NEED]?: KeyNeed })[NEED];
    if (!need || need.keyless) return;
    const presented = need.inQuery
      ? nonEmpty((request.query as Record<string, unknown>).apiKey)
      : nonEmpty(request.headers['x-api-key']);
    try {
      const caller = await keys.authenticate(presented, request.ip, need.scope);
      reply.headers(rateHeaders(caller.rate));
      callers.set(request, caller);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      throw refusalProblem(error, { keyInQuery: need.inQuery, tagOperation: need.tagOperation });
    }
  });
}

/** Who acts, for a handler behind requireShlinkKeys. */
export function shlinkCaller(request: FastifyRequest): Authenticated {
  const caller = callers.get(request);
  if (!caller) throw new Error('a Shlink API handler ran without an authenticated caller');
  return caller;
}
