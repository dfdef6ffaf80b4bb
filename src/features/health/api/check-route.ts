import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Link } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import type { LinkHealth } from '../../../core/link-health.ts';
import { callerOf } from '../../../http/api-auth.ts';
import { DOMAIN_PARAM } from '../../../http/domain-param.ts';
import { HealthSchema } from '../../../http/health-schema.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { okResponse, operationDoc } from '../../../http/operation-doc.ts';
import { healthResource } from '../../links/index.ts';

/** POST /api/v1/links/{code}/check (docs/api.md §21): the link's targets checked now. */

export interface CheckRouteOptions {
  /** The workspace's live link of that code on the domain `?domain=` names (317 for one it cannot). */
  findLink(workspaceId: number, domain: string | undefined, code: string): Promise<Link | undefined>;
  checkNow(link: Link): Promise<LinkHealth>;
}

export const CheckAnswer = Type.Object(
  { health: HealthSchema },
  {
    $id: 'LinkCheck',
    additionalProperties: false,
    examples: [
      {
        health: {
          state: 'ok',
          checked_at: '2026-11-29T09:00:00.000Z',
          code: null,
          status: 200,
          since: '2026-11-28T09:00:00.000Z',
        },
      },
    ],
  },
);

const CHECK = {
  config: { scope: 'links:write' },
  schema: {
    params: Type.Object({ code: Type.String({ maxLength: 64, description: 'The short code.' }) }),
    querystring: Type.Object({ domain: DOMAIN_PARAM }, { additionalProperties: false }),
    ...operationDoc({
      operationId: 'checkLink',
      summary: "Check a link's targets now",
      description:
        'Checks the url, then each rule’s and variant’s, as a create would (310, 316, then the ' +
        'inspection: 306-311) and answers the new `health`; a check counts toward the two failures ' +
        'in a row that make a link broken, and sends link.broken or link.recovered when the state ' +
        'changes. Not paced like the scheduled checks: it waits for the targets (5 s each at most).',
      tag: 'Links',
      scope: 'links:write',
      ok: { 200: okResponse(CheckAnswer, 'The link’s health after this check.') },
      refusals: { 400: ['317'], 404: ['314'] },
    }),
  },
} as const;

type Check = { Params: { code: string }; Querystring: { domain?: string } };

export async function checkRoute(v1: FastifyInstance, options: CheckRouteOptions): Promise<void> {
  v1.post<Check>('/links/:code/check', CHECK, async (request) => {
    const { workspaceId } = callerOf(request).actor;
    const link = await options.findLink(workspaceId, request.query.domain, request.params.code);
    if (!link) throw new Refusal('314', 'This account has no live link with that code.');
    return { health: healthResource({ health: await options.checkNow(link) }) };
  });
  refuseOtherMethods(v1, '/links/:code/check', ['POST']);
}
