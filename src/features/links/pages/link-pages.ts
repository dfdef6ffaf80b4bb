import type { FastifyInstance } from 'fastify';
import { pageScope } from '../../../web/page-errors.ts';
import { groupForms } from '../../groups/index.ts';
import { bulkRoutes } from './bulk-routes.ts';
import { dashboardRoutes } from './dashboard-routes.ts';
import { type DashboardRouteOptions, dashboardRenderer } from './dashboard-view.ts';
import { linkArchiveRoute } from './link-archive-route.ts';
import { linkPageRoutes } from './link-page-routes.ts';

/** The dashboard behind the session: the account's links and groups, one page per link, many links at once. */
export async function linkPages(app: FastifyInstance, options: DashboardRouteOptions): Promise<void> {
  pageScope(app);
  await app.register(dashboardRoutes, options);
  await app.register(linkPageRoutes, options);
  await app.register(linkArchiveRoute, options);
  await app.register(bulkRoutes, options);
  const { render, notFound } = dashboardRenderer(options);
  await app.register(groupForms, {
    ...options,
    refused: (request, reply, user, status, error) => render(request, reply, user, status, { error }),
    notFound,
  });
}
