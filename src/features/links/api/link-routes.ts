import type { FastifyInstance } from 'fastify';
import { callerOf } from '../../../http/api-auth.ts';
import { jsonOnly } from '../../../http/management-api.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { RATE_LIMIT_HEADERS } from '../../../http/openapi-parts.ts';
import { LOCATION_HEADER, noContentResponse, okResponse, operationDoc } from '../../../http/operation-doc.ts';
import {
  CodeParams,
  CreateLinkBody,
  type CreateLinkBodyType,
  DomainQuery,
  LinkListSchema,
  LinkSchema,
  ListLinksQuery,
  type ListLinksQueryType,
  PatchLinkBody,
  type PatchLinkBodyType,
} from './link-schemas.ts';
import type { LinksApi } from './links-api.ts';

/** /api/v1/links (docs/api.md §7.3), registered inside the management API's scope. */
export interface LinkRouteOptions {
  api: LinksApi;
  /** BASE_URL without its trailing slash, for Location. */
  origin: string;
}

const TARGET_REFUSALS = ['306', '307', '308', '309', '310', '311', '312', '316'] as const;

const CREATE = {
  config: { scope: 'links:create' },
  preValidation: jsonOnly,
  schema: {
    body: CreateLinkBody,
    ...operationDoc({
      operationId: 'createLink',
      summary: 'Create a link',
      description:
        'Shortens `url` with the checks of POST /create, in its order; a slug is checked right ' +
        'after the group (300 for its shape, 313 when taken or reserved).',
      tag: 'Links',
      scope: 'links:create',
      ok: { 201: okResponse(LinkSchema, 'Created. Location is the link in this API.', LOCATION_HEADER) },
      refusals: { 400: ['317'], 403: ['304'], 409: ['305', '313'], 422: [...TARGET_REFUSALS] },
    }),
  },
} as const;

const LIST = {
  config: { scope: 'links:read' },
  schema: {
    querystring: ListLinksQuery,
    ...operationDoc({
      operationId: 'listLinks',
      summary: 'List links',
      description:
        'Live links but the archived (see `state`), newest first (see `sort` and `order`), a page at ' +
        'a time: pass `next_cursor` back as `cursor` for the next one, with the same sort and order. ' +
        'Links added or deleted between pages never shift a page.',
      tag: 'Links',
      scope: 'links:read',
      ok: { 200: okResponse(LinkListSchema, 'One page of links.') },
      refusals: { 400: ['317'], 422: ['312'] },
    }),
  },
} as const;

const EXPORT = {
  config: { scope: 'links:read' },
  schema: {
    querystring: DomainQuery,
    ...operationDoc({
      operationId: 'exportLinks',
      summary: 'Export links as CSV',
      description:
        'Every live link of the account, newest first, streamed: short_code, short_url, long_url, ' +
        'title, group, tags, created_at, expires_at, clicks, unique_visitors, domain, leads, sales, revenue (as `EUR:4900 USD:100`); with `?domain=`, ' +
        'only the links on that domain. An account runs at most two exports at once on an instance; a ' +
        'third is 429 with Retry-After.',
      tag: 'Links',
      scope: 'links:read',
      ok: {
        200: {
          description: 'RFC 4180 CSV with a header row.',
          headers: RATE_LIMIT_HEADERS,
          content: { 'text/csv': { schema: { type: 'string' } } },
        },
      },
      refusals: { 400: ['317'] },
    }),
  },
} as const;

const GET = {
  config: { scope: 'links:read' },
  schema: {
    params: CodeParams,
    querystring: DomainQuery,
    ...operationDoc({
      operationId: 'getLink',
      summary: 'Get a link',
      description: 'One link of the account with its counts.',
      tag: 'Links',
      scope: 'links:read',
      ok: { 200: okResponse(LinkSchema, 'The link.') },
      refusals: { 400: ['317'], 404: ['314'] },
    }),
  },
} as const;

const PATCH = {
  config: { scope: 'links:write' },
  preValidation: jsonOnly,
  schema: {
    params: CodeParams,
    querystring: DomainQuery,
    body: PatchLinkBody,
    ...operationDoc({
      operationId: 'updateLink',
      summary: 'Change a link',
      description:
        'Changes the fields given; a new `url` passes the checks of create, the inspection included. ' +
        'The code never changes; every instance redirects by the new state within a second. A ' +
        'refused change changes nothing.',
      tag: 'Links',
      scope: 'links:write',
      ok: { 200: okResponse(LinkSchema, 'The link as it is now.') },
      refusals: { 400: ['317'], 404: ['314'], 409: ['305'], 422: [...TARGET_REFUSALS] },
    }),
  },
} as const;

const DELETE = {
  config: { scope: 'links:write' },
  schema: {
    params: CodeParams,
    querystring: DomainQuery,
    ...operationDoc({
      operationId: 'deleteLink',
      summary: 'Delete a link',
      description: 'The code answers 404 everywhere within a second and is never issued again.',
      tag: 'Links',
      scope: 'links:write',
      ok: { 204: noContentResponse('Deleted.') },
      refusals: { 400: ['317'], 404: ['314'] },
    }),
  },
} as const;

type Code = { Params: { code: string }; Querystring: { domain?: string } };

/** The link a request names: its code, and `?domain=`. */
const addressOf = (request: { params: { code: string }; query: { domain?: string } }) => ({
  code: request.params.code,
  domain: request.query.domain,
});

export async function linkRoutes(v1: FastifyInstance, { api, origin }: LinkRouteOptions): Promise<void> {
  v1.post<{ Body: CreateLinkBodyType }>('/links', CREATE, async (request, reply) => {
    const link = await api.create(callerOf(request).actor, request.body, request.ip);
    // A link off the default domain is addressed with its domain (docs/api.md §12).
    const elsewhere = !link.short_url.startsWith(`${origin}/`);
    const query = elsewhere ? `?domain=${encodeURIComponent(link.domain)}` : '';
    const where = `${origin}/api/v1/links/${link.short_code}${query}`;
    return reply.code(201).header('location', where).send(link);
  });

  v1.get<{ Querystring: ListLinksQueryType }>('/links', LIST, async (request) =>
    api.list(callerOf(request).actor, request.query),
  );

  v1.get<{ Querystring: { domain?: string } }>('/links.csv', EXPORT, async (request, reply) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="links.csv"')
      .header('cache-control', 'no-store')
      .send(api.csv(callerOf(request).actor, request.query.domain)),
  );

  v1.get<Code>('/links/:code', GET, async (request) => api.get(callerOf(request).actor, addressOf(request)));

  v1.patch<Code & { Body: PatchLinkBodyType }>('/links/:code', PATCH, async (request) =>
    api.patch(callerOf(request).actor, addressOf(request), request.body),
  );

  v1.delete<Code>('/links/:code', DELETE, async (request, reply) => {
    await api.remove(callerOf(request).actor, addressOf(request));
    return reply.code(204).send();
  });

  refuseOtherMethods(v1, '/links', ['GET', 'POST']);
  refuseOtherMethods(v1, '/links.csv', ['GET']);
  refuseOtherMethods(v1, '/links/:code', ['GET', 'PATCH', 'DELETE']);
}
