import type { FastifyInstance } from 'fastify';
import { DAY_MS } from '../../../core/days.ts';
import { Refusal } from '../../../core/errors.ts';
import type { CompatDeps } from '../compat-deps.ts';
import { keyNeed, shlinkCaller } from './shlink-auth.ts';
import { BAD, type Fields, queryText } from './shlink-input.ts';
import { domainNotFound, notSupported, shortUrlNotFound, tagNotFound } from './shlink-problems.ts';
import { addressOf, onShortUrl } from './short-url-edit.ts';
import { summaryOf } from './short-url-shape.ts';
import * as docs from './visit-docs.ts';
import { noVisits, readVisitQuery, visitsPage } from './visit-list.ts';

/**
 * Shlink's visits: of a short URL, a tag, a domain, all of them, the overview. Snip counts visits
 * to unknown codes nowhere, so the orphan visits are always an empty list (docs/migrating/shlink.md).
 */

const ORPHAN_TYPES = ['invalid_short_url', 'base_url', 'regular_404'];
const STATS = keyNeed({ scope: 'stats:read' });

/** `domain=` of a visits filter: none, DEFAULT or a host; `none` for one the workspace does not see. */
function domainFilter(
  deps: CompatDeps,
  workspaceId: number,
  raw: Fields,
): { domainId?: number; none: boolean } {
  const named = queryText(raw, 'domain');
  if (named === undefined || named === BAD || named === '') return { none: false };
  try {
    return { domainId: deps.domainOf(workspaceId, named === 'DEFAULT' ? undefined : named), none: false };
  } catch (error) {
    if (error instanceof Refusal) return { none: true };
    throw error;
  }
}

export function visitRoutes(app: FastifyInstance, deps: CompatDeps): void {
  visitsOfOne(app, deps);
  visitsOfAll(app, deps);
}

/** The visits of one short URL, tag or domain. */
function visitsOfOne(app: FastifyInstance, deps: CompatDeps): void {
  app.get(
    '/v3/short-urls/:shortCode/visits',
    { config: STATS, schema: docs.SHORT_URL_VISITS },
    async (request) => {
      const { workspaceId } = shlinkCaller(request).actor;
      const read = readVisitQuery(request.query as Fields);
      const address = addressOf(request.params, request.query);
      const link = await onShortUrl(address, async () => {
        const domainId = deps.domainOf(workspaceId, address.domain);
        return deps.store.findLinkOfWorkspace(workspaceId, domainId, address.code);
      });
      if (!link) throw shortUrlNotFound(address.code, address.domain);
      return { visits: await visitsPage(deps, workspaceId, read, { linkId: link.id }) };
    },
  );

  app.get('/v3/tags/:tag/visits', { config: STATS, schema: docs.TAG_VISITS }, async (request) => {
    const { workspaceId } = shlinkCaller(request).actor;
    const tag = String((request.params as { tag?: unknown }).tag ?? '');
    const read = readVisitQuery(request.query as Fields);
    const stats = await deps.store.tagStats(workspaceId, tag);
    if (!stats.some((stat) => stat.tag === tag)) throw tagNotFound(tag);
    const { domainId, none } = domainFilter(deps, workspaceId, request.query as Fields);
    return { visits: none ? noVisits(read) : await visitsPage(deps, workspaceId, read, { tag, domainId }) };
  });

  app.get('/v3/domains/:domain/visits', { config: STATS, schema: docs.DOMAIN_VISITS }, async (request) => {
    const { workspaceId } = shlinkCaller(request).actor;
    const authority = String((request.params as { domain?: unknown }).domain ?? '');
    const read = readVisitQuery(request.query as Fields);
    let domainId: number;
    try {
      domainId = deps.domainOf(workspaceId, authority === 'DEFAULT' ? undefined : authority);
    } catch (error) {
      throw error instanceof Refusal ? domainNotFound(authority) : error;
    }
    return { visits: await visitsPage(deps, workspaceId, read, { domainId }) };
  });
}

/** Every visit of the workspace, the overview, and the orphan visits Snip has none of. */
function visitsOfAll(app: FastifyInstance, deps: CompatDeps): void {
  app.get('/v3/visits/non-orphan', { config: STATS, schema: docs.NON_ORPHAN_VISITS }, async (request) => {
    const { workspaceId } = shlinkCaller(request).actor;
    const read = readVisitQuery(request.query as Fields);
    const { domainId, none } = domainFilter(deps, workspaceId, request.query as Fields);
    return { visits: none ? noVisits(read) : await visitsPage(deps, workspaceId, read, { domainId }) };
  });

  app.get('/v3/visits/orphan', { config: STATS, schema: docs.ORPHAN_VISITS }, async (request) => {
    const read = readVisitQuery(request.query as Fields);
    const type = read.invalid.take('type', queryText(request.query as Fields, 'type'));
    if (type !== undefined && !ORPHAN_TYPES.includes(type)) read.invalid.note('type');
    return { visits: noVisits(read) };
  });

  app.get('/v3/visits', { config: STATS, schema: docs.OVERVIEW }, async (request) => {
    const { workspaceId } = shlinkCaller(request).actor;
    const end = (Math.floor(deps.now() / DAY_MS) + 1) * DAY_MS;
    const { totals } = await deps.store.stats({ workspaceId }, { from: 0, to: end, interval: 'day' });
    const none = summaryOf(0, 0);
    return { visits: { nonOrphanVisits: summaryOf(totals.clicks, totals.botHits), orphanVisits: none } };
  });

  app.delete(
    '/v3/visits/orphan',
    { config: keyNeed({ scope: 'links:write' }), schema: docs.DELETE_ORPHAN },
    async () => ({
      deletedVisits: 0,
    }),
  );

  app.delete(
    '/v3/short-urls/:shortCode/visits',
    { config: keyNeed({ scope: 'links:write' }), schema: docs.DELETE_VISITS },
    async () => {
      throw notSupported("Snip keeps a link's visit counts for as long as the link: they cannot be deleted.");
    },
  );
}
