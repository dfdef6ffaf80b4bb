import type { FastifyInstance } from 'fastify';
import { pageScope } from '../../web/page-errors.ts';
import type { AdminPageOptions } from './admin-deps.ts';
import { auditSection, workspaceAuditRoute } from './audit-routes.ts';
import { blocklistActions, blocklistsSection } from './blocklists-page.ts';
import { linkActions, linksSection } from './links-page.ts';
import { overviewSection } from './overview-page.ts';
import { reportActions, reportsSection } from './reports-page.ts';
import { sectionRoutes } from './section.ts';
import { userActions, usersSection } from './users-page.ts';
import { workspaceActions, workspacesSection } from './workspaces-page.ts';

/**
 * The operator console, /admin (docs/api.md §13), and each workspace's audit log, /w/<slug>/audit:
 * a scope of pages of its own, registered by app.ts beside the other signed-in pages. The console
 * exists only for operators (anyone else gets 404); every change goes through the abuse services,
 * as the operator's commands do.
 */
export async function adminPages(app: FastifyInstance, options: AdminPageOptions): Promise<void> {
  pageScope(app);
  sectionRoutes(app, options, overviewSection(options), {});
  sectionRoutes(app, options, usersSection(options), userActions(options));
  sectionRoutes(app, options, workspacesSection(options), workspaceActions(options));
  sectionRoutes(app, options, linksSection(options), linkActions(options));
  sectionRoutes(app, options, reportsSection(options), reportActions(options));
  sectionRoutes(app, options, blocklistsSection(options), blocklistActions(options));
  sectionRoutes(app, options, auditSection(options), {});
  workspaceAuditRoute(app, options);
}
