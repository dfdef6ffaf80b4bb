import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticated } from '../../../core/ports/key-auth.ts';
import type { Scope } from '../../../core/scopes.ts';
import { presentedApiKey } from '../../../http/api-auth.ts';
import { acceptEmptyJson } from '../../../http/body-parsers.ts';
import { rateHeaders } from '../../../http/rate-headers.ts';
import type { CompatDeps } from '../compat-deps.ts';
import { kuttAccount } from './kutt-account.ts';
import { answerKuttErrors } from './kutt-errors.ts';
import { readCreate, readEdit, readListQuery } from './kutt-input.ts';
import { linkAddressOf } from './kutt-link.ts';
import { kuttLinks } from './kutt-links.ts';
import { KUTT_ROUTES } from './kutt-route-docs.ts';

/**
 * The Kutt API v2 on Snip (docs/api.md §15, docs/migrating/kutt.md): Kutt's clients, screenshot tools'
 * Kutt uploaders among them, work unchanged with a Snip key in X-API-KEY. Each request is judged by its
 * key first, as on /api/v1, then read as Kutt reads it; every refusal is Kutt's `{"error"}`.
 */

/** The link (or domain) id of a path: fastify has decoded it. */
const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

export async function kuttRoutes(app: FastifyInstance, deps: CompatDeps): Promise<void> {
  answerKuttErrors(app);
  acceptEmptyJson(app);
  const links = kuttLinks(deps);
  const account = kuttAccount(deps);
  const callers = new WeakMap<FastifyRequest, Authenticated>();

  /** The key, its window and the scope, before the body is read; RateLimit-* on every answer after. */
  const keyed = (scope: Scope | undefined) => async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = await deps.keys.authenticate(presentedApiKey(request), request.ip, scope);
    reply.headers(rateHeaders(caller.rate));
    callers.set(request, caller);
  };
  const actorOf = (request: FastifyRequest) => {
    const caller = callers.get(request);
    if (!caller) throw new Error('a Kutt route ran without an authenticated caller');
    return caller.actor;
  };

  app.get('/health', KUTT_ROUTES.health, async (_request, reply) => {
    if (await account.healthy()) return reply.type('text/html; charset=utf-8').send('OK');
    return reply.code(503).header('retry-after', '5').send({ error: 'The store does not answer.' });
  });

  app.get('/links', { ...KUTT_ROUTES.list, onRequest: keyed('links:read') }, async (request) =>
    links.list(actorOf(request), readListQuery(request.query)),
  );

  app.post('/links', { ...KUTT_ROUTES.create, onRequest: keyed('links:create') }, async (request, reply) => {
    const created = await links.create(actorOf(request), readCreate(request.body, deps.now()), request.ip);
    return reply.code(created.status).send(created.link);
  });

  app.patch(
    '/links/:id',
    { ...KUTT_ROUTES.edit, onRequest: keyed('links:write') },
    async (request: FastifyRequest) => {
      const input = readEdit(request.body, deps.now());
      return links.edit(actorOf(request), linkAddressOf(idOf(request)), input);
    },
  );

  app.delete(
    '/links/:id',
    { ...KUTT_ROUTES.remove, onRequest: keyed('links:write') },
    async (request: FastifyRequest) => links.remove(actorOf(request), linkAddressOf(idOf(request))),
  );

  const stats = async (request: FastifyRequest) =>
    links.stats(actorOf(request), linkAddressOf(idOf(request)));
  app.get('/links/:id/stats', { ...KUTT_ROUTES.stats, onRequest: keyed('stats:read') }, stats);
  // The kutt package (3.x) asks for stats with DELETE: answered the same, it changes nothing.
  app.delete('/links/:id/stats', { ...KUTT_ROUTES.statsByDelete, onRequest: keyed('stats:read') }, stats);

  app.get('/users', { ...KUTT_ROUTES.user, onRequest: keyed(undefined) }, async (request) =>
    account.user(
      actorOf(request),
      callers.get(request)?.maker.userId ?? null,
      presentedApiKey(request) ?? '',
    ),
  );

  app.post('/domains', { ...KUTT_ROUTES.addDomain, onRequest: keyed('domains:write') }, async (request) =>
    account.addDomain(actorOf(request), request.body),
  );

  app.delete('/domains/:id', { ...KUTT_ROUTES.removeDomain, onRequest: keyed('domains:write') }, async () =>
    account.removeDomain(),
  );
}
