import type { ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from '../../../http/api-auth.ts';
import { jsonOnly } from '../../../http/management-api.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { RATE_LIMIT_HEADERS } from '../../../http/openapi-parts.ts';
import { type OperationDoc, operationDoc } from '../../../http/operation-doc.ts';
import { rateHeaders } from '../../../http/rate-headers.ts';
import { BULK_BODY_BYTES, MAX_BULK_ITEMS } from '../bulk-checks.ts';
import { BULK_SLOTS } from '../bulk-limiter.ts';
import type { BulkLinks, BulkOptions } from '../bulk-links.ts';
import {
  BULK_SHAPES,
  BulkCreateBody,
  BulkDeleteBody,
  BulkEditBody,
  BulkResultSchema,
} from './bulk-schemas.ts';

/** POST|PATCH|DELETE /api/v1/links/bulk (docs/api.md §16), inside the management API's scope. */
export interface BulkRouteOptions {
  bulk: BulkLinks;
}

const RESULT = {
  200: {
    ...BulkResultSchema,
    description:
      "Every item's answer at its index: `link`, or `error` with the problem a single request would " +
      'have answered (e.g. `300`, `302`, `304`, `305`, `306`-`311`, `313`, `314`), `429` past the window.',
    headers: RATE_LIMIT_HEADERS,
  },
};

const WINDOW =
  ` At most ${MAX_BULK_ITEMS} items; each is checked, counted in the hourly window and answered as a ` +
  'single request of its own: the request itself spends the first item’s unit, each further item one ' +
  'more in index order, and once the window is spent the remaining items answer 429 (the request ' +
  `itself still 200). At most ${BULK_SLOTS.total} items run at once, at most ${BULK_SLOTS.perHost} per target host.`;

/** A route of the bulk: its scope, a JSON body of its shape (BULK_SHAPES) and its entry in /openapi.json. */
function bulkRoute(
  body: object,
  shape: ValidateFunction,
  doc: Pick<OperationDoc, 'operationId' | 'summary' | 'description' | 'scope' | 'refusals'>,
) {
  return {
    config: { scope: doc.scope },
    preValidation: jsonOnly,
    bodyLimit: BULK_BODY_BYTES,
    // The documented body names each item's fields; the check is the request's shape only.
    validatorCompiler: () => shape,
    schema: {
      body,
      ...operationDoc({ ...doc, description: doc.description + WINDOW, tag: 'Links', ok: RESULT }),
    },
  };
}

const CREATE = bulkRoute(BulkCreateBody, BULK_SHAPES.create, {
  operationId: 'createLinks',
  summary: 'Create links in bulk',
  description:
    'Creates each body as POST /api/v1/links does, with the same checks and quota (304 for the items ' +
    'past it); two items with the same url (or slug) on a domain: the later one is 305 (or 313).',
  scope: 'links:create',
});

const EDIT = bulkRoute(BulkEditBody, BULK_SHAPES.edit, {
  operationId: 'updateLinks',
  summary: 'Change links in bulk',
  description:
    'Applies `change` to each code as PATCH /api/v1/links/{code} does: an unknown code is its item’s ' +
    '314, a refused change changes nothing of that link.',
  scope: 'links:write',
  refusals: { 400: ['317'] },
});

const DELETE = bulkRoute(BulkDeleteBody, BULK_SHAPES.delete, {
  operationId: 'deleteLinks',
  summary: 'Delete links in bulk',
  description:
    'Deletes each code as DELETE /api/v1/links/{code} does; a deleted item answers the link as it ' +
    'was, an unknown code its 314.',
  scope: 'links:write',
  refusals: { 400: ['317'] },
});

/** The request spent the first item's unit; the answer's RateLimit-* is the window after the last. */
function itemOptions(request: FastifyRequest, reply: FastifyReply): BulkOptions {
  return {
    firstSpent: true,
    onRate: (rate) => {
      reply.headers(rateHeaders(rate));
    },
    onFault: (error, index) => request.log.error({ err: error, index }, 'a bulk item failed'),
  };
}

type Codes = { Body: { codes: unknown[]; domain?: string } };

export async function bulkRoutes(v1: FastifyInstance, { bulk }: BulkRouteOptions): Promise<void> {
  v1.post<{ Body: unknown[] }>('/links/bulk', CREATE, async (request, reply) => ({
    items: await bulk.create(callerOf(request).actor, request.body, request.ip, itemOptions(request, reply)),
  }));

  v1.patch<{ Body: Codes['Body'] & { change: unknown } }>('/links/bulk', EDIT, async (request, reply) => {
    const { codes, change, domain } = request.body;
    const options = itemOptions(request, reply);
    return { items: await bulk.edit(callerOf(request).actor, codes, change, domain, options) };
  });

  v1.delete<Codes>('/links/bulk', DELETE, async (request, reply) => {
    const { codes, domain } = request.body;
    return { items: await bulk.remove(callerOf(request).actor, codes, domain, itemOptions(request, reply)) };
  });

  // GET is left to /links/:code: a link whose slug is "bulk" is still read at its own address.
  refuseOtherMethods(v1, '/links/bulk', ['GET', 'POST', 'PATCH', 'DELETE']);
}
