import type { FastifyInstance } from 'fastify';
import { pageScope } from '../../../web/page-errors.ts';
import { type StatsRouteOptions, statsRoutes } from './stats-routes.ts';

/** The stats pages behind the session: the account's and each link's, with their CSV. */
export async function statsPages(app: FastifyInstance, options: StatsRouteOptions): Promise<void> {
  pageScope(app);
  await app.register(statsRoutes, options);
}
