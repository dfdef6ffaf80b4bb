import type { FastifyInstance } from 'fastify';
import { callerOf } from '../../../http/api-auth.ts';
import { jsonOnly } from '../../../http/management-api.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { LOCATION_HEADER, noContentResponse, okResponse, operationDoc } from '../../../http/operation-doc.ts';
import {
  CreateGroupBody,
  GroupListSchema,
  GroupParams,
  GroupSchema,
  PatchGroupBody,
} from './group-schemas.ts';
import type { GroupsApi } from './groups-api.ts';

/** /api/v1/groups (docs/api.md §7.3), registered inside the management API's scope. */
export interface GroupRouteOptions {
  api: GroupsApi;
  /** BASE_URL without its trailing slash, for Location. */
  origin: string;
}

const LIST = {
  config: { scope: 'links:read' },
  schema: operationDoc({
    operationId: 'listGroups',
    summary: 'List groups',
    description: 'Every group of the account, newest first, with its count of live links.',
    tag: 'Groups',
    scope: 'links:read',
    ok: { 200: okResponse(GroupListSchema, 'The groups.') },
  }),
} as const;

const CREATE = {
  config: { scope: 'groups:write' },
  preValidation: jsonOnly,
  schema: {
    body: CreateGroupBody,
    ...operationDoc({
      operationId: 'createGroup',
      summary: 'Create a group',
      description: 'A group with a name and an API identifier unique in the account (313 when taken).',
      tag: 'Groups',
      scope: 'groups:write',
      ok: { 201: okResponse(GroupSchema, 'Created. Location is the group in this API.', LOCATION_HEADER) },
      refusals: { 409: ['313'] },
    }),
  },
} as const;

const PATCH = {
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
      ok: { 200: okResponse(GroupSchema, 'The group as it is now.') },
      refusals: { 404: ['314'], 409: ['313'] },
    }),
  },
} as const;

const DELETE = {
  config: { scope: 'groups:write' },
  schema: {
    params: GroupParams,
    ...operationDoc({
      operationId: 'deleteGroup',
      summary: 'Delete a group',
      description: 'Its links stay, ungrouped.',
      tag: 'Groups',
      scope: 'groups:write',
      ok: { 204: noContentResponse('Deleted.') },
      refusals: { 404: ['314'] },
    }),
  },
} as const;

type GroupBody = { name: string; api_id?: string };

export async function groupRoutes(v1: FastifyInstance, { api, origin }: GroupRouteOptions): Promise<void> {
  v1.get('/groups', LIST, async (request) => api.list(callerOf(request).actor));

  v1.post<{ Body: GroupBody }>('/groups', CREATE, async (request, reply) => {
    const group = await api.create(callerOf(request).actor, request.body.name, request.body.api_id);
    return reply.code(201).header('location', `${origin}/api/v1/groups/${group.id}`).send(group);
  });

  v1.patch<{ Params: { id: number }; Body: Partial<GroupBody> }>('/groups/:id', PATCH, async (request) =>
    api.patch(callerOf(request).actor, request.params.id, {
      name: request.body.name,
      apiId: request.body.api_id,
    }),
  );

  v1.delete<{ Params: { id: number } }>('/groups/:id', DELETE, async (request, reply) => {
    await api.remove(callerOf(request).actor, request.params.id);
    return reply.code(204).send();
  });

  refuseOtherMethods(v1, '/groups', ['GET', 'POST']);
  refuseOtherMethods(v1, '/groups/:id', ['PATCH', 'DELETE']);
}
