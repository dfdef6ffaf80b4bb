import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CompatDeps } from '../compat-deps.ts';
import { keyNeed, shlinkCaller } from './shlink-auth.ts';
import { type Fields, queryText } from './shlink-input.ts';
import { createShortUrl, readCreate } from './short-url-create.ts';
import { CREATE, DELETE, EDIT, GET, LIST, SHORTEN } from './short-url-docs.ts';
import { addressOf, editShortUrl, onShortUrl, readEdit } from './short-url-edit.ts';
import { listShortUrls } from './short-url-list.ts';
import { shortUrlOf } from './short-url-shape.ts';

/** Shlink's short URLs (its OpenAPI's "Short URLs"): list, create, shorten, get, edit, delete. */

/** `format=txt`, or without `format` an Accept header that asks for text/plain first. */
function wantsText(request: FastifyRequest): boolean {
  const format = queryText(request.query as Fields, 'format');
  if (typeof format === 'string') return format.toLowerCase() === 'txt';
  return (request.headers.accept ?? '').split(',')[0]?.toLowerCase().includes('text/plain') ?? false;
}

export function shortUrlRoutes(app: FastifyInstance, deps: CompatDeps): void {
  const defaultHost = (workspaceId: number) => deps.domainChoices(workspaceId).chosen;

  app.get('/v3/short-urls', { config: keyNeed({ scope: 'links:read' }), schema: LIST }, async (request) => {
    const { workspaceId } = shlinkCaller(request).actor;
    return { shortUrls: await listShortUrls(deps, workspaceId, request.query as Fields) };
  });

  app.post(
    '/v3/short-urls',
    { config: keyNeed({ scope: 'links:create' }), schema: CREATE },
    async (request) => {
      const { actor } = shlinkCaller(request);
      const link = await createShortUrl(deps, actor, readCreate(request.body, deps.now()), request.ip);
      return shortUrlOf(link, defaultHost(actor.workspaceId));
    },
  );

  app.get(
    '/v3/short-urls/shorten',
    { config: keyNeed({ scope: 'links:create', inQuery: true }), schema: SHORTEN },
    async (request, reply) => {
      const { actor } = shlinkCaller(request);
      const longUrl = (request.query as Fields).longUrl;
      const ask = readCreate({ longUrl: Array.isArray(longUrl) ? longUrl.at(-1) : longUrl }, deps.now());
      // The one-step form carries the long URL alone: the link already made for it is its answer.
      const link = await createShortUrl(deps, actor, { ...ask, findIfExists: true }, request.ip);
      const shortUrl = shortUrlOf(link, defaultHost(actor.workspaceId));
      return wantsText(request) ? reply.type('text/plain').send(shortUrl.shortUrl) : shortUrl;
    },
  );

  app.get(
    '/v3/short-urls/:shortCode',
    { config: keyNeed({ scope: 'links:read' }), schema: GET },
    async (request) => {
      const { actor } = shlinkCaller(request);
      const address = addressOf(request.params, request.query);
      const link = await onShortUrl(address, () => deps.links.get(actor, address));
      return shortUrlOf(link, defaultHost(actor.workspaceId));
    },
  );

  app.patch(
    '/v3/short-urls/:shortCode',
    { config: keyNeed({ scope: 'links:write' }), schema: EDIT },
    async (request) => {
      const { actor } = shlinkCaller(request);
      const address = addressOf(request.params, request.query);
      const link = await editShortUrl(deps, actor, address, readEdit(request.body, deps.now()));
      return shortUrlOf(link, defaultHost(actor.workspaceId));
    },
  );

  app.delete(
    '/v3/short-urls/:shortCode',
    { config: keyNeed({ scope: 'links:write' }), schema: DELETE },
    async (request, reply) => {
      const { actor } = shlinkCaller(request);
      const address = addressOf(request.params, request.query);
      await onShortUrl(address, () => deps.links.remove(actor, address));
      return reply.code(204).send();
    },
  );
}
