import type { FastifyInstance } from 'fastify';
import { pageScope } from '../../../web/page-errors.ts';
import type { LiveStreams } from '../live/live-streams.ts';
import { liveRoute } from './live-route.ts';
import { type StatsRouteOptions, statsRoutes } from './stats-routes.ts';

/** The stats pages behind the session: the account's and each link's, with their CSV, and the live stream. */
export async function statsPages(
  app: FastifyInstance,
  options: StatsRouteOptions & { streams: LiveStreams },
): Promise<void> {
  pageScope(app);
  await app.register(statsRoutes, options);
  await app.register(liveRoute, options);
}
