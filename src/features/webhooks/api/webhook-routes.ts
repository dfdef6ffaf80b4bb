import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Refusal } from '../../../core/errors.ts';
import type { AccountStore, KeyStore } from '../../../core/ports/store.ts';
import { callerOf } from '../../../http/api-auth.ts';
import { apiRoute, type RouteParts } from '../../../http/management-api.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { LOCATION_HEADER, noContentResponse, okResponse } from '../../../http/operation-doc.ts';
import { apiAuditor } from '../../workspaces/index.ts';
import type { EndpointFields, EndpointService } from '../endpoints.ts';
import { deliveryJson, endpointJson } from '../webhook-json.ts';
import {
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryListSchema,
  DeliveryParams,
  PatchWebhookBody,
  TestSentSchema,
  WebhookListSchema,
  WebhookParams,
  WebhookSchema,
} from './webhook-schemas.ts';

/** /api/v1/webhooks (docs/api.md §14), inside the management API's scope; every route needs webhooks:write. */

export interface WebhookRouteOptions {
  endpoints: EndpointService;
  store: Pick<AccountStore & KeyStore, 'findUserById' | 'listLiveKeys'>;
  origin: string;
}

const route = (operationId: string, summary: string, description: string, parts: RouteParts) =>
  apiRoute({ tag: 'Webhooks', scope: 'webhooks:write', operationId, summary, description }, parts);

const ONE = okResponse(WebhookSchema, 'The endpoint as it is now.');
const NOT_FOUND = { 404: ['314' as const] };

const LIST = route('listWebhooks', 'List webhook endpoints', 'The workspace’s endpoints, oldest first.', {
  ok: { 200: okResponse(WebhookListSchema, 'The endpoints (never their secrets).') },
});
const ADD = route('addWebhook', 'Add a webhook endpoint', 'Its signing secret is in this answer only.', {
  body: CreateWebhookBody,
  ok: { 201: okResponse(WebhookSchema, 'Added, with its secret.', LOCATION_HEADER) },
  refusals: { 422: ['320'] },
});
const GET = route('getWebhook', 'Get a webhook endpoint', 'One endpoint, without its secret.', {
  params: WebhookParams,
  ok: { 200: ONE },
  refusals: NOT_FOUND,
});
const PATCH = route(
  'updateWebhook',
  'Change a webhook endpoint',
  'Any of url, events, description, enabled.',
  {
    params: WebhookParams,
    body: PatchWebhookBody,
    ok: { 200: ONE },
    refusals: { ...NOT_FOUND, 422: ['320'] },
  },
);
const DELETE = route('deleteWebhook', 'Remove a webhook endpoint', 'Its deliveries go with it.', {
  params: WebhookParams,
  ok: { 204: noContentResponse('Removed.') },
  refusals: NOT_FOUND,
});
const ROTATE = route(
  'rotateWebhookSecret',
  'Rotate the signing secret',
  'The new secret is in this answer only.',
  {
    params: WebhookParams,
    ok: { 200: okResponse(WebhookSchema, 'The endpoint with its new secret.') },
    refusals: NOT_FOUND,
  },
);
const TEST = route(
  'testWebhook',
  'Send a test event',
  'Queues a signed webhook.test event for this endpoint.',
  {
    params: WebhookParams,
    ok: { 202: okResponse(TestSentSchema, 'Queued; see its deliveries.') },
    refusals: NOT_FOUND,
  },
);
const PAGED = route(
  'listWebhookDeliveries',
  'List deliveries',
  'The endpoint’s deliveries of the last 7 days, newest first; pass `next_cursor` back as `cursor`.',
  {
    params: WebhookParams,
    ok: { 200: okResponse(DeliveryListSchema, 'One page of deliveries.') },
    refusals: NOT_FOUND,
  },
);
const DELIVERIES = { ...PAGED, schema: { ...PAGED.schema, querystring: DeliveriesQuery } };
const RESEND = route('resendWebhookDelivery', 'Send a delivery again', 'With the same webhook-id.', {
  params: DeliveryParams,
  ok: { 202: noContentResponse('Queued again.') },
  refusals: NOT_FOUND,
});

type Id = { Params: { id: string } };

/** A page's position: the last delivery id shown, as `d<id>`; anything else is 300. */
function cursorId(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const match = /^d([0-9]{1,15})$/.exec(cursor);
  if (!match) throw new Refusal('300', 'The cursor is not one Snip issued.');
  return Number(match[1]);
}

export async function webhookRoutes(v1: FastifyInstance, options: WebhookRouteOptions): Promise<void> {
  const { endpoints } = options;
  const workspace = (request: FastifyRequest) => callerOf(request).actor.workspaceId;
  const by = (request: FastifyRequest) => apiAuditor(options.store, callerOf(request));
  const id = (request: FastifyRequest<Id>) => Number(request.params.id);

  v1.get('/webhooks', LIST, async (request) => ({
    items: (await endpoints.list(workspace(request))).map((endpoint) => endpointJson(endpoint)),
  }));

  v1.post<{ Body: EndpointFields }>('/webhooks', ADD, async (request, reply) => {
    const endpoint = await endpoints.create(workspace(request), request.body, await by(request));
    return reply
      .code(201)
      .header('location', `${options.origin}/api/v1/webhooks/${endpoint.id}`)
      .send(endpointJson(endpoint, true));
  });

  v1.get<Id>('/webhooks/:id', GET, async (request) =>
    endpointJson(await endpoints.get(workspace(request), id(request))),
  );

  v1.patch<Id & { Body: EndpointFields }>('/webhooks/:id', PATCH, async (request) =>
    endpointJson(await endpoints.update(workspace(request), id(request), request.body, await by(request))),
  );

  v1.delete<Id>('/webhooks/:id', DELETE, async (request, reply) => {
    await endpoints.remove(workspace(request), id(request), await by(request));
    return reply.code(204).send();
  });

  v1.post<Id>('/webhooks/:id/rotate', ROTATE, async (request) =>
    endpointJson(await endpoints.rotate(workspace(request), id(request), await by(request)), true),
  );

  v1.post<Id>('/webhooks/:id/test', TEST, async (request, reply) =>
    reply.code(202).send({ webhook_id: await endpoints.test(workspace(request), id(request)) }),
  );

  v1.get<Id & { Querystring: { limit?: number; cursor?: string } }>(
    '/webhooks/:id/deliveries',
    DELIVERIES,
    async (request) => {
      const limit = request.query.limit ?? 50;
      const page = await endpoints.deliveries(
        workspace(request),
        id(request),
        limit + 1,
        cursorId(request.query.cursor),
      );
      const items = page.slice(0, limit);
      const last = items.at(-1);
      return {
        items: items.map(deliveryJson),
        next_cursor: page.length > limit && last ? `d${last.id}` : null,
      };
    },
  );

  v1.post<{ Params: { id: string; delivery: string } }>(
    '/webhooks/:id/deliveries/:delivery/resend',
    RESEND,
    async (request, reply) => {
      const { params } = request;
      await endpoints.resend(workspace(request), Number(params.id), Number(params.delivery));
      return reply.code(202).send();
    },
  );

  refuseOtherMethods(v1, '/webhooks', ['GET', 'POST']);
  refuseOtherMethods(v1, '/webhooks/:id', ['GET', 'PATCH', 'DELETE']);
  refuseOtherMethods(v1, '/webhooks/:id/rotate', ['POST']);
  refuseOtherMethods(v1, '/webhooks/:id/test', ['POST']);
  refuseOtherMethods(v1, '/webhooks/:id/deliveries', ['GET']);
  refuseOtherMethods(v1, '/webhooks/:id/deliveries/:delivery/resend', ['POST']);
}
