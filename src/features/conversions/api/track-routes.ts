import type { FastifyInstance } from 'fastify';
import { callerOf } from '../../../http/api-auth.ts';
import { apiRoute } from '../../../http/management-api.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { okResponse } from '../../../http/operation-doc.ts';
import type { LeadInput, SaleInput, TrackService } from '../track.ts';
import { LeadBody, LeadSchema, SaleBody, SaleSchema } from './track-schemas.ts';

/** POST /api/v1/track/lead and /track/sale (docs/api.md §20), with the conversions:write scope. */

const LEAD = apiRoute(
  {
    tag: 'Conversions',
    scope: 'conversions:write',
    operationId: 'trackLead',
    summary: 'Report a lead',
    description:
      'A click of a tracked link led to a lead (a sign-up): the click id the redirect appended as `snip_id`, what happened, and the customer’s id in the merchant’s system. The same customer and event again is answered 200 with the first answer and counted once. A click id not of this workspace, unknown, or older than CONVERSION_WINDOW_DAYS is 404 `321`.',
  },
  {
    body: LeadBody,
    ok: {
      201: okResponse(LeadSchema, 'Recorded.'),
      200: okResponse(LeadSchema, 'Recorded before: the first answer.'),
    },
    refusals: { 404: ['321'] },
  },
);

const SALE = apiRoute(
  {
    tag: 'Conversions',
    scope: 'conversions:write',
    operationId: 'trackSale',
    summary: 'Report a sale',
    description:
      'A sale, attributed to the link of the customer’s first lead, else of the click id given. The same `invoice_id` again is answered 200 with the first answer and counted once. A customer with no lead and no click id is 404 `322`; a click id not of this workspace or past the window is 404 `321`.',
  },
  {
    body: SaleBody,
    ok: {
      201: okResponse(SaleSchema, 'Recorded.'),
      200: okResponse(SaleSchema, 'This invoice was recorded before: the first answer.'),
    },
    refusals: { 404: ['321', '322'] },
  },
);

export async function trackRoutes(v1: FastifyInstance, { track }: { track: TrackService }): Promise<void> {
  v1.post<{ Body: LeadInput }>('/track/lead', LEAD, async (request, reply) => {
    const answer = await track.lead(callerOf(request).actor.workspaceId, request.body);
    return reply.code(answer.created ? 201 : 200).send(answer.body);
  });
  v1.post<{ Body: SaleInput }>('/track/sale', SALE, async (request, reply) => {
    const answer = await track.sale(callerOf(request).actor.workspaceId, request.body);
    return reply.code(answer.created ? 201 : 200).send(answer.body);
  });
  refuseOtherMethods(v1, '/track/lead', ['POST']);
  refuseOtherMethods(v1, '/track/sale', ['POST']);
}
