import { Readable } from 'node:stream';
import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Refusal } from '../../core/errors.ts';
import type { KeyAuthenticator } from '../../core/ports/key-auth.ts';
import { validateJsonApi } from '../../http/api-validation.ts';
import { refuseOtherMethods } from '../../http/method-guard.ts';
import { RATE_LIMIT_HEADERS } from '../../http/openapi-parts.ts';
import { callerOf, requireApiKeys } from './api-auth.ts';
import type { LinksApi } from './links-api.ts';
import { operationDoc } from './openapi.ts';
import { answerApiErrors } from './problems.ts';
import {
  AccountSchema,
  CodeParams,
  CreateGroupBody,
  CreateLinkBody,
  type CreateLinkBodyType,
  GroupListSchema,
  GroupParams,
  GroupSchema,
  LinkListSchema,
  LinkSchema,
  ListLinksQuery,
  type ListLinksQueryType,
  PatchGroupBody,
  PatchLinkBody,
  type PatchLinkBodyType,
  StatsQuery,
  type StatsQueryType,
  StatsSchema,
} from './schemas.ts';

export { LINK_SCHEMAS } from './schemas.ts';

/**
 * The management API, /api/v1 (docs/api.md §7): links, groups and the account, for scripts. Every
 * request is judged by its key first; answers are plain JSON resources, refusals problem documents.
 */
export interface LinksFeatureOptions {
  api: LinksApi;
  keys: KeyAuthenticator;
  baseUrl: URL;
}

const ok = (schema: TSchema, description: string, headers: Record<string, object> = {}) => ({
  ...Type.Ref(schema),
  description,
  headers: { ...RATE_LIMIT_HEADERS, ...headers },
});
const noContent = (description: string) => ({ type: 'null', description, headers: RATE_LIMIT_HEADERS });
const LOCATION = { Location: { type: 'string', format: 'uri', description: 'The new resource.' } };
const TARGET_REFUSALS = ['306', '307', '308', '309', '310', '311', '312'] as const;
const STATS_NOTE =
  'By default the last 30 UTC days, today included, by day; at most 366 days. Unique visitors over ' +
  'a range are the sum of daily unique visitors: a visitor id changes every UTC day by design, so ' +
  'one person on three days counts three times. Hourly answers need the raw events, kept ' +
  'ANALYTICS_RETENTION_DAYS (90 by default); daily answers reach back as far as the link. A range ' +
  'Snip cannot read (`from` after `to`, longer than 366 days, hours past the retention, not a day ' +
  'nor an RFC 3339 date-time) is 300.';

/** Bodies are JSON; a form or anything else is refused before it is read. */
async function jsonOnly(request: FastifyRequest): Promise<void> {
  const type = (request.headers['content-type'] ?? '').toLowerCase();
  if (!type.startsWith('application/json')) {
    throw new Refusal('300', 'Send the body as application/json.');
  }
}

export async function linksFeature(app: FastifyInstance, options: LinksFeatureOptions): Promise<void> {
  const { api } = options;
  const origin = options.baseUrl.href.replace(/\/$/, '');

  await app.register(
    async (v1) => {
      answerApiErrors(v1);
      validateJsonApi(v1);
      requireApiKeys(v1, options.keys);

      v1.post<{ Body: CreateLinkBodyType }>(
        '/links',
        {
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
              ok: { 201: ok(LinkSchema, 'Created. Location is the link in this API.', LOCATION) },
              refusals: { 403: ['304'], 409: ['305', '313'], 422: [...TARGET_REFUSALS] },
            }),
          },
        },
        async (request, reply) => {
          const link = await api.create(callerOf(request).actor, request.body, request.ip);
          return reply.code(201).header('location', `${origin}/api/v1/links/${link.short_code}`).send(link);
        },
      );

      v1.get<{ Querystring: ListLinksQueryType }>(
        '/links',
        {
          config: { scope: 'links:read' },
          schema: {
            querystring: ListLinksQuery,
            ...operationDoc({
              operationId: 'listLinks',
              summary: 'List links',
              description:
                'Live links, newest first, a page at a time: pass `next_cursor` back as `cursor` for the ' +
                'next one. Links added or deleted between pages never shift a page.',
              tag: 'Links',
              scope: 'links:read',
              ok: { 200: ok(LinkListSchema, 'One page of links.') },
              refusals: { 422: ['312'] },
            }),
          },
        },
        async (request) => api.list(callerOf(request).actor, request.query),
      );

      v1.get(
        '/links.csv',
        {
          config: { scope: 'links:read' },
          schema: operationDoc({
            operationId: 'exportLinks',
            summary: 'Export links as CSV',
            description:
              'Every live link of the account, newest first, streamed: short_code, short_url, long_url, ' +
              'title, group, tags, created_at, expires_at, clicks, unique_visitors.',
            tag: 'Links',
            scope: 'links:read',
            ok: {
              200: {
                description: 'RFC 4180 CSV with a header row.',
                headers: RATE_LIMIT_HEADERS,
                content: { 'text/csv': { schema: { type: 'string' } } },
              },
            },
          }),
        },
        async (request, reply) => {
          const rows = api.csv(callerOf(request).actor);
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', 'attachment; filename="links.csv"')
            .header('cache-control', 'no-store')
            .send(Readable.from(rows));
        },
      );

      v1.get<{ Params: { code: string } }>(
        '/links/:code',
        {
          config: { scope: 'links:read' },
          schema: {
            params: CodeParams,
            ...operationDoc({
              operationId: 'getLink',
              summary: 'Get a link',
              description: 'One link of the account with its counts.',
              tag: 'Links',
              scope: 'links:read',
              ok: { 200: ok(LinkSchema, 'The link.') },
              refusals: { 404: ['314'] },
            }),
          },
        },
        async (request) => api.get(callerOf(request).actor, request.params.code),
      );

      v1.patch<{ Params: { code: string }; Body: PatchLinkBodyType }>(
        '/links/:code',
        {
          config: { scope: 'links:write' },
          preValidation: jsonOnly,
          schema: {
            params: CodeParams,
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
              ok: { 200: ok(LinkSchema, 'The link as it is now.') },
              refusals: { 404: ['314'], 409: ['305'], 422: [...TARGET_REFUSALS] },
            }),
          },
        },
        async (request) => api.patch(callerOf(request).actor, request.params.code, request.body),
      );

      v1.delete<{ Params: { code: string } }>(
        '/links/:code',
        {
          config: { scope: 'links:write' },
          schema: {
            params: CodeParams,
            ...operationDoc({
              operationId: 'deleteLink',
              summary: 'Delete a link',
              description: 'The code answers 404 everywhere within a second and is never issued again.',
              tag: 'Links',
              scope: 'links:write',
              ok: { 204: noContent('Deleted.') },
              refusals: { 404: ['314'] },
            }),
          },
        },
        async (request, reply) => {
          await api.remove(callerOf(request).actor, request.params.code);
          return reply.code(204).send();
        },
      );

      v1.get<{ Params: { code: string }; Querystring: StatsQueryType }>(
        '/links/:code/stats',
        {
          config: { scope: 'stats:read' },
          schema: {
            params: CodeParams,
            querystring: StatsQuery,
            ...operationDoc({
              operationId: 'getLinkStats',
              summary: 'Visit stats of a link',
              description: `Clicks of one live link of the account over a range. ${STATS_NOTE}`,
              tag: 'Stats',
              scope: 'stats:read',
              ok: { 200: ok(StatsSchema, 'Totals, series and breakdowns of the link.') },
              refusals: { 404: ['314'] },
            }),
          },
        },
        async (request) => api.stats(callerOf(request).actor, request.query, request.params.code),
      );

      v1.get<{ Querystring: StatsQueryType }>(
        '/stats',
        {
          config: { scope: 'stats:read' },
          schema: {
            querystring: StatsQuery,
            ...operationDoc({
              operationId: 'getAccountStats',
              summary: 'Visit stats of the account',
              description: `Clicks of every link of the account, deleted ones included, over a range. ${STATS_NOTE}`,
              tag: 'Stats',
              scope: 'stats:read',
              ok: { 200: ok(StatsSchema, 'Totals, series and breakdowns over all links of the account.') },
            }),
          },
        },
        async (request) => api.stats(callerOf(request).actor, request.query),
      );

      v1.get(
        '/groups',
        {
          config: { scope: 'links:read' },
          schema: operationDoc({
            operationId: 'listGroups',
            summary: 'List groups',
            description: 'Every group of the account, newest first, with its count of live links.',
            tag: 'Groups',
            scope: 'links:read',
            ok: { 200: ok(GroupListSchema, 'The groups.') },
          }),
        },
        async (request) => api.groups(callerOf(request).actor),
      );

      v1.post<{ Body: { name: string; api_id?: string } }>(
        '/groups',
        {
          config: { scope: 'groups:write' },
          preValidation: jsonOnly,
          schema: {
            body: CreateGroupBody,
            ...operationDoc({
              operationId: 'createGroup',
              summary: 'Create a group',
              description:
                'A group with a name and an API identifier unique in the account (313 when taken).',
              tag: 'Groups',
              scope: 'groups:write',
              ok: { 201: ok(GroupSchema, 'Created. Location is the group in this API.', LOCATION) },
              refusals: { 409: ['313'] },
            }),
          },
        },
        async (request, reply) => {
          const group = await api.createGroup(
            callerOf(request).actor,
            request.body.name,
            request.body.api_id,
          );
          return reply.code(201).header('location', `${origin}/api/v1/groups/${group.id}`).send(group);
        },
      );

      v1.patch<{ Params: { id: number }; Body: { name?: string; api_id?: string } }>(
        '/groups/:id',
        {
          config: { scope: 'groups:write' },
          preValidation: jsonOnly,
          schema: {
            params: GroupParams,
            body: PatchGroupBody,
            ...operationDoc({
              operationId: 'updateGroup',
              summary: 'Change a group',
              description: 'Renames the group or changes its API identifier; its links stay in it.',
              tag: 'Groups',
              scope: 'groups:write',
              ok: { 200: ok(GroupSchema, 'The group as it is now.') },
              refusals: { 404: ['314'], 409: ['313'] },
            }),
          },
        },
        async (request) =>
          api.patchGroup(callerOf(request).actor, request.params.id, {
            name: request.body.name,
            apiId: request.body.api_id,
          }),
      );

      v1.delete<{ Params: { id: number } }>(
        '/groups/:id',
        {
          config: { scope: 'groups:write' },
          schema: {
            params: GroupParams,
            ...operationDoc({
              operationId: 'deleteGroup',
              summary: 'Delete a group',
              description: 'Its links stay, ungrouped.',
              tag: 'Groups',
              scope: 'groups:write',
              ok: { 204: noContent('Deleted.') },
              refusals: { 404: ['314'] },
            }),
          },
        },
        async (request, reply) => {
          await api.deleteGroup(callerOf(request).actor, request.params.id);
          return reply.code(204).send();
        },
      );

      v1.get(
        '/account',
        {
          schema: operationDoc({
            operationId: 'getAccount',
            summary: 'Get the account',
            description: "The key's account: its plan, quota and use of this hour's window.",
            tag: 'Account',
            scope: undefined,
            ok: { 200: ok(AccountSchema, 'The account.') },
          }),
        },
        async (request) => {
          const { actor, rate } = callerOf(request);
          return api.account(actor, rate);
        },
      );

      refuseOtherMethods(v1, '/links', ['GET', 'POST']);
      refuseOtherMethods(v1, '/links.csv', ['GET']);
      refuseOtherMethods(v1, '/links/:code', ['GET', 'PATCH', 'DELETE']);
      refuseOtherMethods(v1, '/links/:code/stats', ['GET']);
      refuseOtherMethods(v1, '/stats', ['GET']);
      refuseOtherMethods(v1, '/groups', ['GET', 'POST']);
      refuseOtherMethods(v1, '/groups/:id', ['PATCH', 'DELETE']);
      refuseOtherMethods(v1, '/account', ['GET']);
    },
    { prefix: '/api/v1' },
  );
}
