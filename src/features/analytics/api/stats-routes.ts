import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { StatsScope } from '../../../core/analytics/model.ts';
import type { StatsAnswer } from '../../../core/analytics/stats.ts';
import type { Actor } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import type { ConversionStore } from '../../../core/ports/conversion-store.ts';
import type { GroupStore, LinkStore, StatsStore, WorkspaceStore } from '../../../core/ports/store.ts';
import { callerOf } from '../../../http/api-auth.ts';
import { DOMAIN_PARAM } from '../../../http/domain-param.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { okResponse, operationDoc } from '../../../http/operation-doc.ts';
import type { AddressedDomain } from '../../domains/index.ts';
import { statsAnswers } from '../stats-answers.ts';
import { LinkStatsFilters, StatsQuery, type StatsQueryType, StatsSchema } from './stats-schemas.ts';

/** GET /api/v1/links/{code}/stats and GET /api/v1/stats (docs/api.md §9.4), inside the management API. */

export interface StatsApiDeps {
  store: Pick<
    LinkStore & StatsStore & GroupStore & WorkspaceStore & ConversionStore,
    | 'findLinkOfWorkspace'
    | 'stats'
    | 'findGroupOfWorkspace'
    | 'findWorkspaceById'
    | 'conversionDays'
    | 'variantConversions'
  >;
  /** The domain `?domain=` names for the workspace (317 for one it does not see). */
  domainOf: AddressedDomain;
  now: () => number;
  /** ANALYTICS_RETENTION_DAYS: how far back hourly stats reach. */
  retentionDays: number;
}

/** The stats of one live link of the account, or of the whole account. */
export function statsApi(deps: StatsApiDeps) {
  const answers = statsAnswers(deps);
  return async (actor: Actor, query: Record<string, unknown>, code?: string): Promise<StatsAnswer> => {
    let scope: StatsScope = { workspaceId: actor.workspaceId };
    if (code !== undefined) {
      const domainId = deps.domainOf(actor.workspaceId, query.domain as string | undefined);
      const link = await deps.store.findLinkOfWorkspace(actor.workspaceId, domainId, code);
      if (!link) throw new Refusal('314', 'This account has no live link with that code.');
      scope = { linkId: link.id };
    }
    const zone = (await deps.store.findWorkspaceById(actor.workspaceId))?.timezone;
    return (await answers({ scope, workspaceId: actor.workspaceId, zone, query })).answer;
  };
}

const STATS_NOTE =
  'By default the last 30 UTC days, today included, by day; at most 366 days. Unique visitors over ' +
  'a range are the sum of daily unique visitors: a visitor id changes every UTC day by design, so ' +
  'one person on three days counts three times. Hourly answers need the raw events, kept ' +
  'ANALYTICS_RETENTION_DAYS (90 by default); daily answers reach back as far as the link. A range ' +
  'Snip cannot read (`from` after `to`, longer than 366 days, hours past the retention, not a day ' +
  "nor an RFC 3339 date-time) is 300. Days and hours are those of the workspace's time zone, or of " +
  '`tz`. Filters all hold; a filtered or zoned answer reads the raw events, so it covers the ' +
  'retained part of its range only and says from when in `retained_from` (docs/api.md §19).';

const LinkStatsQuery = Type.Composite([LinkStatsFilters, Type.Object({ domain: DOMAIN_PARAM })], {
  additionalProperties: false,
});

const CodeParams = Type.Object({
  code: Type.String({ maxLength: 64, description: 'The short code.' }),
});

const LINK_STATS = {
  config: { scope: 'stats:read' },
  schema: {
    params: CodeParams,
    querystring: LinkStatsQuery,
    ...operationDoc({
      operationId: 'getLinkStats',
      summary: 'Visit stats of a link',
      description: `Clicks of one live link of the account over a range. ${STATS_NOTE}`,
      tag: 'Stats',
      scope: 'stats:read',
      ok: { 200: okResponse(StatsSchema, 'Totals, series and breakdowns of the link.') },
      refusals: { 400: ['317'], 404: ['314'] },
    }),
  },
} as const;

const ACCOUNT_STATS = {
  config: { scope: 'stats:read' },
  schema: {
    querystring: StatsQuery,
    ...operationDoc({
      operationId: 'getAccountStats',
      summary: 'Visit stats of the account',
      description: `Clicks of every link of the account, deleted ones included, over a range. ${STATS_NOTE}`,
      tag: 'Stats',
      scope: 'stats:read',
      ok: { 200: okResponse(StatsSchema, 'Totals, series and breakdowns over all links of the account.') },
      refusals: { 400: ['317'], 422: ['312'] },
    }),
  },
} as const;

export async function statsApiRoutes(v1: FastifyInstance, deps: StatsApiDeps): Promise<void> {
  const stats = statsApi(deps);
  v1.get<{ Params: { code: string }; Querystring: StatsQueryType & { domain?: string } }>(
    '/links/:code/stats',
    LINK_STATS,
    async (request) => stats(callerOf(request).actor, request.query, request.params.code),
  );
  v1.get<{ Querystring: StatsQueryType }>('/stats', ACCOUNT_STATS, async (request) =>
    stats(callerOf(request).actor, request.query),
  );
  refuseOtherMethods(v1, '/links/:code/stats', ['GET']);
  refuseOtherMethods(v1, '/stats', ['GET']);
}
